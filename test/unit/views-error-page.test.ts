import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderErrorPage, renderUnknownIsbnPage } from '../../src/http/views/error-page.js';

const BASE = 'https://books.example.org';

describe('error pages', () => {
  it('404 for an unknown ISBN explains it, offers store searches and prefills the search box', () => {
    const page = renderUnknownIsbnPage('9780000000002', BASE, undefined, [
      { name: 'WorldCat', url: 'https://search.worldcat.org/search?q=bn:9780000000002' },
    ]);
    assert.match(page, /<title>We don’t know this book yet · Booklink<\/title>/);
    assert.match(page, /data-status="404"/);
    assert.ok(page.includes('No catalogue we use knows the ISBN 9780000000002 yet.'));
    assert.ok(page.includes('href="https://search.worldcat.org/search?q=bn:9780000000002"'));
    assert.match(page, />Search WorldCat</);
    assert.match(page, /action="\/search\/miss"/);
    assert.doesNotMatch(page, /404<\/|Pages are created/);
    assert.match(page, /<form class="search search--large" action="\/search" method="get" role="search">/);
    assert.match(page, /name="q" value="9780000000002"/);
    assert.match(page, /<meta name="robots" content="noindex">/);
  });

  it('uses the site layout with one search box, the footer links and no canonical', () => {
    const page = renderErrorPage({ status: 404, baseUrl: BASE });
    assert.match(page, /<header class="site-header">/);
    assert.equal((page.match(/action="\/search"/g) ?? []).length, 1);
    assert.match(page, /href="\/developers.md"/);
    assert.match(page, /href="\/docs"/);
    assert.doesNotMatch(page, /rel="canonical"/);
    assert.match(page, /Page not found/);
  });

  it('has sensible defaults for 403, 422 and 429', () => {
    assert.match(renderErrorPage({ status: 403, baseUrl: BASE }), /Not allowed/);
    assert.match(renderErrorPage({ status: 422, baseUrl: BASE }), /Check the address/);
    assert.match(renderErrorPage({ status: 429, baseUrl: BASE }), /Too many requests/);
  });

  it('never shows a caller-supplied message or title on a 5xx page', () => {
    const page = renderErrorPage({
      status: 500,
      title: 'TypeError at store/books.ts:42',
      message: 'SQLITE_ERROR: no such table: books',
      baseUrl: BASE,
    });
    assert.doesNotMatch(page, /SQLITE|TypeError|books\.ts/);
    assert.match(page, /Something went wrong/);
  });

  it('escapes the prefilled query and custom text', () => {
    const page = renderErrorPage({
      status: 404,
      message: '<b>x</b>',
      searchQuery: '"><script>',
      baseUrl: BASE,
    });
    assert.ok(!page.includes('<b>x</b>'));
    assert.ok(page.includes('value="&quot;&gt;&lt;script&gt;"'));
  });
});
