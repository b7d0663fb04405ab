import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { parseIsbn } from '../../src/domain/isbn.js';
import { matchKey } from '../../src/domain/text.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

/** A checksum-valid ISBN-13 for a small number. */
function isbnFor(n: number): string {
  const body = `978${String(n).padStart(9, '0')}`;
  const sum = [...body].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

interface Row {
  row: number;
  status: 'found' | 'not_found';
  slug?: string;
  booklink_url?: string;
  reason?: string;
}

/** 480 rows the local catalog can answer (by ISBN-13, ISBN-10, title+author and URL) and 20 it cannot. */
function buildRows(): { books: Array<Record<string, unknown>>; unresolved: Map<number, string> } {
  const books: Array<Record<string, unknown>> = [];
  const unresolved = new Map<number, string>();
  for (let i = 0; i < 500; i++) {
    const isbn = parseIsbn(isbnFor(10_000 + i));
    const rank = i + 1;
    if (i % 25 === 7) {
      // 20 rows: unknown ISBNs, invalid ISBNs, unknown titles, and rows with nothing to go on.
      const kind = unresolved.size % 4;
      const row =
        kind === 0
          ? { isbn_13: isbnFor(90_000 + i), rank }
          : kind === 1
            ? { isbn_13: '9780000000001', rank }
            : kind === 2
              ? { title: `Nobody Wrote This ${i}`, author: 'No One', rank }
              : { rank };
      unresolved.set(
        i,
        ['isbn_unknown', 'invalid_isbn', 'title_author_unknown', 'no_identifier'][kind] ?? '',
      );
      books.push(row);
    } else if (i % 10 === 1) books.push({ isbn_10: isbn?.isbn10, rank });
    else if (i % 10 === 2) books.push({ title: `Catalog Title ${i}`, author: 'Ann Writer', rank });
    else if (i % 10 === 3) books.push({ url: `https://www.amazon.com/dp/${isbn?.isbn10}`, rank });
    else books.push({ isbn_13: isbn?.isbn13, rank });
  }
  return { books, unresolved };
}

describeEachDialect('list ingest', (context) => {
  let t: TestApp;
  let key = '';
  before(async () => {
    t = await startTestApp(
      context.store(),
      { RATE_LIMIT_KEYED: '100000', RATE_LIMIT_ANON: '100000' },
      { remote: null },
    );
    key = (await createApiKey(context.store().db, { name: 'partner', scopes: ['ingest'] })).key;
    const entries = Array.from({ length: 500 }, (_, i) => {
      const isbn = parseIsbn(isbnFor(10_000 + i));
      const title = `Catalog Title ${i}`;
      return {
        entry_key: `isbn:${isbn?.isbn13}`,
        source: 'test',
        isbn13: isbn?.isbn13 ?? null,
        isbn10: isbn?.isbn10 ?? null,
        title,
        authors: JSON.stringify(['Ann Writer']),
        identifiers: '{}',
        match_key: matchKey(title, ['Ann Writer']),
        popularity: 0,
        updated_at: new Date().toISOString(),
      };
    });
    for (let i = 0; i < entries.length; i += 50) {
      await context
        .store()
        .db.insertInto('catalog_entries')
        .values(entries.slice(i, i + 50))
        .execute();
    }
  });
  after(() => t.close());

  const send = (body: unknown, apiKey: string | null = key) =>
    fetch(`${t.baseUrl}/api/v1/ingest/lists`, {
      method: 'POST',
      headers: {
        'user-agent': HUMAN_UA,
        'content-type': 'application/json',
        ...(apiKey ? { 'x-api-key': apiKey } : {}),
      },
      body: JSON.stringify(body),
    });

  // Its time is reported, not asserted: a timing assertion fails on a slow or busy machine, not on slow code
  // (speed goals are measured in bench/).
  it('resolves a 500-book list from the local catalog and reports the 20 it could not', async (test) => {
    const { books, unresolved } = buildRows();
    const body = {
      list_source: 'nyt',
      list_name: 'Hardcover Fiction',
      list_date: '2025-06-01',
      is_featured: true,
      books,
    };
    const started = performance.now();
    const response = await send(body);
    const elapsed = performance.now() - started;
    assert.equal(response.status, 201);
    test.diagnostic(`500 rows resolved in ${Math.round(elapsed)} ms`);
    const result = (await response.json()) as {
      list_id: string;
      url: string;
      resolved: number;
      unresolved: number;
      rows: Row[];
    };
    assert.equal(result.resolved, 480);
    assert.equal(result.unresolved, 20);
    assert.equal(result.rows.length, 500);
    for (const row of result.rows) {
      const expected = unresolved.get(row.row);
      if (expected) {
        assert.equal(row.status, 'not_found', `row ${row.row}`);
        assert.equal(row.reason, expected, `row ${row.row}`);
      } else {
        assert.equal(row.status, 'found', `row ${row.row}: ${JSON.stringify(row)}`);
        assert.equal(row.booklink_url, `http://booklink.test/book/${row.slug}`);
      }
    }
    const list = await (await t.get(`/api/v1/lists/${result.list_id}`)).json();
    assert.equal(list.books.length, 480);
    assert.deepEqual(
      list.books.slice(0, 2).map((b: { rank: number }) => b.rank),
      [1, 2],
    );

    // Sent again (a corrected edition of the same list): still one list, with the same books.
    const again = await send(body);
    assert.equal(again.status, 201);
    const second = await again.json();
    const lists = await context
      .store()
      .db.selectFrom('lists')
      .selectAll()
      .where('source', '=', 'nyt')
      .execute();
    assert.equal(lists.length, 1);
    assert.equal(lists[0]?.public_id, second.list_id);
    assert.match(second.list_id, /^[0-9a-z]{12}$/);
    const items = await context
      .store()
      .db.selectFrom('list_items')
      .select('book_id')
      .where('list_id', '=', Number(lists[0]?.id))
      .execute();
    assert.equal(items.length, 480);
    assert.equal((await t.get(`/api/v1/lists/${result.list_id}`)).status, 404);

    // Featured: on the home page, and the list has its page.
    const home = await (await t.get('/')).text();
    assert.match(home, /Hardcover Fiction/);
    const page = await t.get(new URL(second.url).pathname);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Source: nyt/);
  });

  it('needs a key with the ingest scope', async () => {
    const body = { list_source: 'x', books: [{ isbn_13: isbnFor(10_000) }] };
    assert.equal((await send(body, null)).status, 401);
    const plain = (await createApiKey(context.store().db, { name: 'reader', scopes: [] })).key;
    assert.equal((await send(body, plain)).status, 403);
  });
});
