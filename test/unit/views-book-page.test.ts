import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderBookPage } from '../../src/http/views/book-page.js';
import type { BookPageModel } from '../../src/http/views/models.js';
import { sampleBookPageModel } from '../../src/http/views/sample.js';

const BASE = 'https://books.example.org';
const COVER = 'https://covers.example.org/frankenstein.jpg';

function model(overrides: Partial<BookPageModel> = {}): BookPageModel {
  return { ...sampleBookPageModel(BASE, COVER), ...overrides };
}

function jsonLd(page: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page);
  assert.ok(match, 'JSON-LD script present');
  return JSON.parse(match[1] ?? '') as Record<string, unknown>;
}

function meta(page: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(page);
  return match?.[1];
}

function anchors(page: string): string[] {
  return page.match(/<a class="dest[^"]*"[^>]*>/g) ?? [];
}

describe('book page: content', () => {
  const sample = model();
  const page = renderBookPage(sample);

  it('is a complete document carrying the book id and slug on <main>', () => {
    assert.match(page, /^<!doctype html>\n<html lang="en">/);
    assert.match(page, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(
      page,
      /<main id="main" class="book book--default" data-book-id="4211" data-book-slug="frankenstein-mary-shelley"/,
    );
    assert.match(page, /<title>Frankenstein by Mary Shelley · Booklink<\/title>/);
  });

  it('shows the book facts', () => {
    for (const text of [
      'Or, The Modern Prometheus',
      'Mary Shelley',
      'Penguin Classics',
      '30 January 2003',
      '352',
      'English',
      'Paperback',
      '978-0-14-143947-1',
      '0141439475',
    ]) {
      assert.ok(page.includes(text), text);
    }
  });

  it('renders every non-empty group with its title, in order, and every link with its /go/ href', () => {
    const groupOrder = [...page.matchAll(/<section class="group" data-group="([a-z]+)"/g)].map((m) => m[1]);
    assert.deepEqual(groupOrder, ['new', 'used', 'ebook', 'audiobook', 'library', 'free']);
    for (const group of sample.groups) {
      assert.ok(page.includes(`>${group.title}</h3>`), group.title);
      for (const link of group.links) {
        const tag = anchors(page).find((a) => a.includes(`data-destination="${link.destinationSlug}"`));
        assert.ok(tag, link.destinationSlug);
        assert.ok(tag.includes(`href="${link.href}"`));
        assert.ok(tag.includes('rel="nofollow sponsored noopener"'));
        assert.ok(tag.includes(`data-group="${group.group}"`));
      }
    }
    const total = sample.groups.reduce((sum, group) => sum + group.links.length, 0);
    assert.equal(anchors(page).length, total);
  });

  it('emphasises featured links and passes a validated brand colour', () => {
    const bookshop = anchors(page).find((a) => a.includes('data-destination="bookshop"'));
    assert.match(bookshop ?? '', /class="dest dest--product dest--featured"/);
    assert.match(bookshop ?? '', /data-brand="#4c3b8f"/);
  });

  it('leaves out empty groups', () => {
    const groups = sample.groups.map((group) => (group.group === 'used' ? { ...group, links: [] } : group));
    const out = renderBookPage(model({ groups }));
    assert.doesNotMatch(out, /data-group="used"/);
    assert.ok(!out.includes('Buy used'));
  });

  it('shows the highlighted destination first as "Your pick"', () => {
    const out = renderBookPage(model({ highlight: 'kobo' }));
    const pick = out.indexOf('Your pick');
    assert.ok(pick > 0);
    assert.ok(pick < out.indexOf('data-group="new"'));
    assert.match(out, /<div class="pick" data-pick="kobo">/);
    assert.ok(!renderBookPage(model({ highlight: 'unknown' })).includes('Your pick'));
  });

  it('links other editions to their book pages and marks the current one', () => {
    assert.match(page, /<a class="edition" href="\/book\/frankenstein-mary-shelley-2">/);
    assert.match(page, /aria-current="page"/);
    assert.doesNotMatch(page, /href="\/book\/frankenstein-mary-shelley"/);
  });

  it('offers the short URL to copy and the canonical URL', () => {
    assert.match(page, /data-copy="https:\/\/books.example.org\/b\/frankenstein-mary-shelley"/);
    assert.match(
      page,
      /Permanent link: <a href="https:\/\/books.example.org\/book\/frankenstein-mary-shelley">/,
    );
  });

  it('collapses a long description behind <details>', () => {
    assert.match(page, /<details class="more"><summary>Read more<\/summary>/);
    const short = renderBookPage(model({ book: { ...sample.book, description: 'A short blurb.' } }));
    assert.match(short, /<p>A short blurb.<\/p>/);
    assert.doesNotMatch(short, /<details/);
  });

  it('loads only external scripts besides JSON-LD', () => {
    const scripts = page.match(/<script[^>]*>/g) ?? [];
    const sources = scripts.flatMap((tag) => /src="\/static\/([a-z]+\.js)\?/.exec(tag)?.[1] ?? []);
    assert.deepEqual(sources.sort(), ['book.js', 'cover.js', 'lists.js', 'saved.js']);
    assert.equal(scripts.length, sources.length + 2, 'two data blocks: the JSON-LD and the scripts’ words');
    for (const tag of scripts)
      assert.match(
        tag,
        /src="\/static\/[a-z]+\.js\?v=[0-9a-f]{12}"|type="application\/ld\+json"|type="application\/json" id="booklink-text"/,
      );
    assert.match(page, /<link rel="stylesheet" href="\/static\/styles.css\?v=[0-9a-f]{12}">/);
  });
});

describe('book page: metadata', () => {
  const page = renderBookPage(model());

  it('points the canonical link at /book/{slug}', () => {
    assert.match(
      page,
      /<link rel="canonical" href="https:\/\/books.example.org\/book\/frankenstein-mary-shelley">/,
    );
  });

  it('has Open Graph and Twitter card tags', () => {
    assert.equal(meta(page, 'og:type'), 'book');
    assert.equal(meta(page, 'og:title'), 'Frankenstein: Or, The Modern Prometheus by Mary Shelley');
    assert.equal(meta(page, 'og:url'), `${BASE}/book/frankenstein-mary-shelley`);
    assert.equal(meta(page, 'og:image'), COVER);
    assert.ok(meta(page, 'og:description')?.startsWith('Obsessed with creating life itself'));
    assert.equal(meta(page, 'twitter:card'), 'summary_large_image');
    assert.equal(meta(page, 'twitter:image'), COVER);
    assert.ok((meta(page, 'description') ?? '').length <= 200);
  });

  it('falls back to a summary card without a cover', () => {
    const sample = model();
    const out = renderBookPage({ ...sample, book: { ...sample.book, coverUrl: null } });
    assert.equal(meta(out, 'twitter:card'), 'summary');
    assert.equal(meta(out, 'og:image'), undefined);
  });

  it('describes the book in schema.org JSON-LD', () => {
    const ld = jsonLd(page);
    assert.equal(ld['@context'], 'https://schema.org');
    assert.equal(ld['@type'], 'Book');
    assert.equal(ld.name, 'Frankenstein: Or, The Modern Prometheus');
    assert.deepEqual(ld.author, [{ '@type': 'Person', name: 'Mary Shelley' }]);
    assert.equal(ld.isbn, '9780141439471');
    assert.equal(ld.datePublished, '2003-01-30');
    assert.deepEqual(ld.publisher, { '@type': 'Organization', name: 'Penguin Classics' });
    assert.equal(ld.image, COVER);
    assert.equal(ld.bookFormat, 'https://schema.org/Paperback');
    assert.equal(ld.inLanguage, 'en');
    assert.equal(ld.numberOfPages, 352);
    assert.equal(ld.url, `${BASE}/book/frankenstein-mary-shelley`);
    const editions = ld.workExample as Array<Record<string, unknown>>;
    assert.equal(editions.length, 3);
    assert.equal(editions[0]?.bookFormat, 'https://schema.org/Hardcover');
  });
});

describe('book page: hostile data', () => {
  const sample = model();
  const evil = '</script><script>alert(1)</script>"\'><img src=x onerror=alert(2)>';
  const page = renderBookPage({
    ...sample,
    book: {
      ...sample.book,
      title: evil,
      subtitle: evil,
      authors: [evil, 'A "quoted" name'],
      description: evil,
      publisher: evil,
      coverUrl: 'javascript:alert(3)',
    },
    groups: sample.groups.map((group) => ({
      ...group,
      links: group.links.map((link) => ({
        ...link,
        name: evil,
        tagline: evil,
        href: 'javascript:alert(4)',
        brandColor: 'red;}</style>',
        iconUrl: 'data:image/svg+xml,<svg onload=alert(5)>',
      })),
    })),
  });

  it('never lets markup from data into the page', () => {
    assert.ok(!page.includes('<script>alert'));
    assert.ok(!page.includes('<img src=x'));
    assert.ok(!page.includes('javascript:'));
    assert.ok(!page.includes('data:image'));
    assert.ok(!page.includes('</style>'));
    // The page's own scripts (four external, the JSON-LD, the scripts' words) and nothing from the data.
    assert.equal((page.match(/<script/g) ?? []).length, 6);
    assert.equal((page.match(/<\/script>/g) ?? []).length, 6);
  });

  it('keeps quotes inside attributes', () => {
    assert.match(page, /data-title="&lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;&#39;&gt;/);
    assert.ok(page.includes('A &quot;quoted&quot; name'));
  });

  it('keeps JSON-LD parseable with the hostile strings intact', () => {
    const ld = jsonLd(page);
    assert.equal((ld.author as Array<{ name: string }>)[0]?.name, evil);
    assert.equal(ld.image, undefined);
  });

  it('renders the placeholder instead of a cover with a bad URL', () => {
    assert.match(page, /<figure class="cover cover--ph\d cover--missing"/);
    assert.doesNotMatch(page, /<img class="cover__img"/);
  });
});

describe('book page: cover', () => {
  it('renders the image and a hidden placeholder when there is a cover', () => {
    const page = renderBookPage(model());
    assert.match(
      page,
      /<figure class="cover cover--ph\d" data-cover data-isbn="9780141439471" data-slug="frankenstein-mary-shelley" data-title="Frankenstein" data-cover-alt="Cover of Frankenstein">/,
    );
    assert.match(
      page,
      /<img class="cover__img" src="https:\/\/covers.example.org\/frankenstein.jpg" alt="Cover of Frankenstein"/,
    );
    assert.match(page, /<div class="cover__placeholder" aria-hidden="true">/);
  });

  it('shows a placeholder with title and author when there is none', () => {
    const sample = model();
    const page = renderBookPage({ ...sample, book: { ...sample.book, coverUrl: null } });
    assert.match(page, /cover--missing/);
    assert.match(page, /<span class="cover__ph-title">Frankenstein<\/span>/);
    assert.match(page, /<span class="cover__ph-author">Mary Shelley<\/span>/);
  });
});

describe('book page: templates', () => {
  const byTemplate = {
    default: renderBookPage(model({ template: 'default' })),
    compact: renderBookPage(model({ template: 'compact' })),
    card: renderBookPage(model({ template: 'card' })),
  };

  it('renders three different pages that all carry the links and metadata', () => {
    assert.notEqual(byTemplate.default, byTemplate.compact);
    assert.notEqual(byTemplate.compact, byTemplate.card);
    for (const [name, page] of Object.entries(byTemplate)) {
      assert.match(page, new RegExp(`class="book book--${name}"`));
      assert.ok(page.includes('href="/go/frankenstein-mary-shelley/amazon"'), name);
      assert.match(page, /<link rel="canonical"/);
      jsonLd(page);
    }
  });

  it('compact drops the description', () => {
    assert.match(byTemplate.default, /About this book/);
    assert.doesNotMatch(byTemplate.compact, /About this book/);
  });

  it('card has no site header or footer, and links to the full page', () => {
    assert.match(byTemplate.default, /<header class="site-header">/);
    assert.doesNotMatch(byTemplate.card, /<header class="site-header">|<footer/);
    assert.match(byTemplate.card, /<article class="card">/);
    assert.match(
      byTemplate.card,
      /<p class="card__foot"><a href="https:\/\/books.example.org\/book\/frankenstein-mary-shelley">/,
    );
  });
});
