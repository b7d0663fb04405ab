import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  fillAlternative,
  placeholderValues,
  templateAlternatives,
} from '../../src/domain/links/templates.js';
import { buildDestinationUrl } from '../../src/domain/links.js';
import { parseRetailerUrl } from '../../src/domain/retailer-urls/index.js';
import { AMAZON_HOSTS, AUDIBLE_HOSTS } from '../../src/domain/store-hosts.js';
import { forCountry } from '../../src/domain/storefronts.js';
import { listAllDestinations } from '../../src/store/destinations.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

const ISBN = '9780141439518';
const IDENTIFIERS = {
  gutenberg: '1342',
  ia: 'prideprejudice00aust',
  standard_ebooks: 'jane-austen/pride-and-prejudice',
  librivox: 'pride-and-prejudice-by-jane-austen',
  ol_edition: 'OL7353617M',
  ol_work: 'OL66554W',
  google_volume: 's1gVAAAAYAAJ',
  apple_books: '395534451',
  apple_audiobook: '1440730519',
};

/** A URL that carries neither the ISBN nor an identifier: a store's search for title and author. */
function byTitleOnly(url: string): boolean {
  const text = decodeURIComponent(url);
  return (
    !text.includes(ISBN) &&
    !text.includes('0141439513') &&
    !Object.values(IDENTIFIERS).some((id) => text.includes(id))
  );
}

/**
 * Every seeded destination and every storefront, filled for a sample book, read back by Booklink's own
 * resolve: what a reader's shared store link gives must be the same book.
 */
describeEachDialect('every seeded template round-trips through resolve', (context) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000' });
    await addCatalogEntry(context.store(), {
      isbn13: ISBN,
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      identifiers: IDENTIFIERS,
      popularity: 1000,
    });
    assert.equal((await t.get(`/isbn/${ISBN}`)).status, 302);
  });
  after(() => t.close());

  it('reads each filled template back to the same ISBN', async () => {
    const book = {
      title: 'Pride and Prejudice',
      authors: ['Austen, Jane'],
      isbn13: ISBN,
      isbn10: '0141439513',
      identifiers: IDENTIFIERS,
    };
    const failures: string[] = [];
    let checked = 0;
    for (const destination of await listAllDestinations(context.store().db)) {
      for (const country of [null, ...Object.keys(destination.storefronts)]) {
        const url = buildDestinationUrl(forCountry(destination, country), book);
        assert.ok(url, `${destination.slug} ${country ?? ''}: no URL`);
        const response = await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`);
        const body = (await response.json()) as {
          status: string;
          isbn?: string | null;
          search_url?: string;
        };
        checked += 1;
        const where = `${destination.slug} ${country ?? '-'} ${url}`;
        if (!byTitleOnly(url)) {
          if (body.status !== 'found' || body.isbn !== ISBN)
            failures.push(`${where} → ${body.status} ${body.isbn ?? ''}`);
          continue;
        }
        // A store search by title and author names no edition: resolve offers the same words instead.
        const words = new URL(body.search_url ?? 'http://x/').searchParams.get('q') ?? '';
        if (body.status !== 'not_found' || !/pride and prejudice/i.test(words))
          failures.push(`${where} → ${body.status} "${words}"`);
      }
    }
    assert.ok(checked > 150, `only ${checked} templates`);
    assert.deepEqual(failures, []);
  });

  it('reads each search by title and author back to the words it asked', async () => {
    // What a reader gets for a book the shop's ISBN form cannot name: the title-and-author fallback.
    const values = placeholderValues(
      { title: 'Pride and Prejudice', authors: ['Austen, Jane'], isbn13: null, isbn10: null },
      {},
      null,
    );
    const failures: string[] = [];
    let checked = 0;
    for (const destination of await listAllDestinations(context.store().db)) {
      for (const country of [null, ...Object.keys(destination.storefronts)]) {
        const { urlTemplate } = forCountry(destination, country);
        for (const alternative of templateAlternatives(urlTemplate)) {
          const url = alternative.includes('{title_author}') ? fillAlternative(alternative, values) : null;
          if (!url) continue;
          const response = await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`);
          const body = (await response.json()) as { status: string; search_url?: string };
          const words = new URL(body.search_url ?? 'http://x/').searchParams.get('q') ?? '';
          checked += 1;
          if (body.status !== 'not_found' || !/pride and prejudice/i.test(words))
            failures.push(`${destination.slug} ${country ?? '-'} ${url} → ${body.status} "${words}"`);
        }
      }
    }
    assert.ok(checked > 100, `only ${checked} title searches`);
    assert.deepEqual(failures, []);
  });

  it("knows every storefront's host in the parser's one list of country hosts", async () => {
    const lists: Record<string, Readonly<Record<string, string>>> = {
      amazon: AMAZON_HOSTS,
      kindle: AMAZON_HOSTS,
      audible: AUDIBLE_HOSTS,
    };
    for (const destination of await listAllDestinations(context.store().db)) {
      for (const [country, front] of Object.entries(destination.storefronts)) {
        const host = new URL(front.baseUrl).hostname.replace(/^www\./, '');
        const list = lists[destination.slug];
        if (list) assert.ok(host in list, `${destination.slug} ${country}: ${host} unknown to the parser`);
        const parsed = parseRetailerUrl(
          front.template.split(' || ')[0]?.replace(/\{[a-z0-9_]+\}/g, '1') ?? '',
        );
        assert.notEqual(parsed?.store, 'unknown', `${destination.slug} ${country}: ${front.template}`);
      }
    }
  });
});
