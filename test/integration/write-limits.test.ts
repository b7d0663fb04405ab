import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { WRITE_KINDS } from '../../src/services/write-limits.js';
import type { Database } from '../../src/store/schema.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { type DialectContext, describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, bookRecord, inventedIsbn } from '../support/factories.js';

const CAP = 5;
const SENT = CAP + 4;
const CAPS = {
  WRITE_LIMIT_MISSES: String(CAP),
  WRITE_LIMIT_FEEDBACK: String(CAP),
  WRITE_LIMIT_VOTES: String(CAP),
  WRITE_LIMIT_SAVED_EVENTS: String(CAP),
  WRITE_LIMIT_LISTS: String(CAP),
  WRITE_LIMIT_LIST_BOOKS: String(CAP),
  WRITE_LIMIT_BOOKS: String(CAP),
  WRITE_LIMIT_CLICKS: String(CAP),
  WRITE_LIMIT_SEARCHES: String(CAP),
};

let nextAddress = 1;
/** A fresh IPv4 address, and a fresh IPv6 /64 whose low bits `ipv6(n)` varies. */
const freshIpv4 = () => `198.51.100.${nextAddress++}`;
function freshIpv6(): (n: number) => string {
  const net = (nextAddress++).toString(16);
  return (n) => `2001:db8:${net}:7::${(n + 1).toString(16)}`;
}

/**
 * Issue 43 point 5: every row an anonymous visitor can make the service store is capped per address
 * (an IPv6 address's /64) and window: past the cap the answer is 429 with Retry-After and nothing is
 * stored; another address is still served; the same write repeated is stored once.
 */
describeEachDialect('per-address caps on anonymous writes', (context: DialectContext) => {
  let t: TestApp;
  let sfid = 0;
  before(async () => {
    t = await startTestApp(
      context.store(),
      { ...CAPS, TRUST_PROXY: 'true', RATE_LIMIT_ANON: '100000' },
      { remote: null, textSearch: null },
    );
    const search = await context
      .store()
      .db.insertInto('searches')
      .values({
        query: 'dune',
        query_key: 'dune',
        parsed_title: null,
        parsed_author: null,
        kind: 'text',
        result_count: 0,
        top_book_key: null,
        source: null,
        channel: 'api',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    sfid = Number(search.id);
  });
  after(() => t.close());

  function send(
    method: string,
    path: string,
    ip: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    return fetch(`${t.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        'user-agent': HUMAN_UA,
        'x-forwarded-for': ip,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function rows(table: keyof Database): Promise<number> {
    const row = await context
      .store()
      .db.selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Sends `count` writes one after the other (write `i` from `address(i)`); returns the statuses. */
  async function flood(
    count: number,
    address: (i: number) => string,
    write: (i: number, ip: string) => Promise<Response>,
  ): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const response = await write(i, address(i));
      statuses.push(response.status);
      if (response.status === 429) {
        const wait = Number(response.headers.get('retry-after'));
        assert.ok(wait >= 1, `Retry-After ${response.headers.get('retry-after')}`);
      }
      await response.body?.cancel();
    }
    return statuses;
  }

  const accepted = (statuses: number[], ok: number) => statuses.filter((status) => status === ok).length;

  /**
   * The shape every kind is held to: SENT distinct writes from one IPv4 address and SENT from one
   * IPv6 /64 (different low bits) each store CAP rows and are then refused; another address is served.
   */
  async function capsEachAddress(
    table: keyof Database,
    ok: number,
    write: (i: number, ip: string) => Promise<Response>,
  ): Promise<void> {
    const before = await rows(table);
    const ipv4 = freshIpv4();
    const fromIpv4 = await flood(SENT, () => ipv4, write);
    assert.equal(accepted(fromIpv4, ok), CAP, `IPv4 statuses ${fromIpv4}`);
    assert.equal(accepted(fromIpv4, 429), SENT - CAP, `IPv4 statuses ${fromIpv4}`);
    assert.equal(await rows(table), before + CAP);

    const fromIpv6 = await flood(SENT, freshIpv6(), (i, ip) => write(SENT + i, ip));
    assert.equal(accepted(fromIpv6, ok), CAP, `IPv6 statuses ${fromIpv6}`);
    assert.equal(await rows(table), before + 2 * CAP);

    const other = await write(2 * SENT, freshIpv4());
    assert.equal(other.status, ok, 'another address is still served');
    assert.equal(await rows(table), before + 2 * CAP + 1);
  }

  /** The same write SENT times from one address: answered as done every time, stored once. */
  async function mergesRepeats(table: keyof Database, ok: number, write: (ip: string) => Promise<Response>) {
    const before = await rows(table);
    const ip = freshIpv4();
    const statuses = await flood(
      SENT,
      () => ip,
      (_, address) => write(address),
    );
    assert.deepEqual(statuses, Array(SENT).fill(ok));
    assert.equal(await rows(table), before + 1);
    // The repeats used no slot of the cap: CAP - 1 other writes still fit.
  }

  it("can't-find-my-book reports (API and the form share the cap); 429 is JSON under /api/, a page elsewhere", async () => {
    await capsEachAddress('search_misses', 201, (i, ip) =>
      send('POST', '/api/v1/search/miss', ip, {
        query: `lost book ${i}`,
        result_count: 0,
        details: 'x'.repeat(2000),
      }),
    );
    await mergesRepeats('search_misses', 201, (ip) =>
      send('POST', '/api/v1/search/miss', ip, { query: 'The  Lost Book', result_count: 0 }),
    );
    // Case, accents and spacing aside, the same words are the same report; other details are not.
    const spelled = freshIpv4();
    const earlier = await rows('search_misses');
    for (const query of ['Le Café Perdu', 'le cafe  perdu', ' LE CAFÉ PERDU ']) {
      assert.equal(
        (await send('POST', '/api/v1/search/miss', spelled, { query, result_count: 0 })).status,
        201,
      );
    }
    const other = { query: 'le cafe perdu', result_count: 0, details: 'the 1962 edition' };
    assert.equal((await send('POST', '/api/v1/search/miss', spelled, other)).status, 201);
    assert.equal(await rows('search_misses'), earlier + 2);

    const ip = freshIpv4();
    const form = (i: number) =>
      fetch(`${t.baseUrl}/search/miss`, {
        method: 'POST',
        headers: {
          'user-agent': HUMAN_UA,
          'x-forwarded-for': ip,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'text/html',
        },
        body: new URLSearchParams({ query: `form book ${i}`, result_count: '0' }).toString(),
      });
    for (let i = 0; i < CAP; i++)
      assert.equal(
        (await send('POST', '/api/v1/search/miss', ip, { query: `api ${i}`, result_count: 0 })).status,
        201,
      );
    const page = await form(0);
    assert.equal(page.status, 429);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(Number(page.headers.get('retry-after')) >= 1);
    assert.match(await page.text(), /try again in/);
    const api = await send('POST', '/api/v1/search/miss', ip, { query: 'one more', result_count: 0 });
    assert.equal(api.status, 429);
    assert.match((await api.json()).detail, /try again in/);
  });

  it('search feedback (clicks on results)', async () => {
    const click = (i: number) => ({ query: `query ${i}`, result_count: 3, clicked_position: 1 });
    await capsEachAddress('search_feedback', 201, (i, ip) =>
      send('POST', '/api/v1/search/feedback', ip, click(i)),
    );
    await mergesRepeats('search_feedback', 201, (ip) =>
      send('POST', '/api/v1/search/feedback', ip, click(-1)),
    );
  });

  it('feedback sizes are capped: top_results_json of 5001 characters is refused with 422', async () => {
    const response = await send('POST', '/api/v1/search/feedback', freshIpv4(), {
      query: 'dune',
      result_count: 1,
      clicked_position: 1,
      top_results_json: 'x'.repeat(5001),
    });
    assert.equal(response.status, 422);
  });

  it('votes on a search', async () => {
    const verdict = (i: number) => ({ feedback: i % 2 === 0 ? 'positive' : 'negative' });
    // A vote repeats only for the same search and verdict: distinct writes alternate, which is two
    // per search, so each write names a search of its own.
    const searches: number[] = [];
    for (let i = 0; i <= 2 * SENT; i++) {
      const row = await context
        .store()
        .db.insertInto('searches')
        .values({
          query: `q${i}`,
          query_key: `q${i}`,
          parsed_title: null,
          parsed_author: null,
          kind: 'text',
          result_count: 0,
          top_book_key: null,
          source: null,
          channel: 'api',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      searches.push(Number(row.id));
    }
    await capsEachAddress('search_votes', 201, (i, ip) =>
      send('POST', `/api/v1/search/${searches[i]}/vote`, ip, verdict(i)),
    );
    await mergesRepeats('search_votes', 201, (ip) =>
      send('POST', `/api/v1/search/${sfid}/vote`, ip, verdict(0)),
    );
    const unknown = await send('POST', '/api/v1/search/99999999/vote', freshIpv4(), verdict(0));
    assert.equal(unknown.status, 404);
  });

  it('saved-book events', async () => {
    const event = (i: number) => ({ event_type: 'saved_add', collection_size: i, book_slug: `book-${i}` });
    await capsEachAddress('saved_events', 204, (i, ip) => send('POST', '/api/v1/events/saved', ip, event(i)));
    await mergesRepeats('saved_events', 204, (ip) => send('POST', '/api/v1/events/saved', ip, event(999)));
  });

  it('lists', async () => {
    await capsEachAddress('lists', 201, (i, ip) => send('POST', '/api/v1/lists', ip, { name: `list ${i}` }));
  });

  it('books added to lists; the same book again is merged and charged nothing', async () => {
    const books: number[] = [];
    for (let i = 0; i <= 2 * SENT; i++) {
      const book = await t.services.creator.createFromRecord(
        bookRecord({ title: `Listed Book ${i}`, authors: ['A. Writer'], isbn13: inventedIsbn(500 + i) }),
      );
      books.push(book.id);
    }
    const created = await (await send('POST', '/api/v1/lists', freshIpv4(), { name: 'shelf' })).json();
    const edit = { 'x-edit-token': created.edit_token };
    const add = (i: number, ip: string) =>
      send('POST', `/api/v1/lists/${created.id}/books`, ip, { book_id: books[i] }, edit);
    await capsEachAddress('list_items', 201, add);
    await mergesRepeats('list_items', 201, (ip) => add(2 * SENT - 1, ip));
  });

  it('new books from /isbn/ visits; a book that exists still opens; search answers from what exists', async () => {
    for (let i = 0; i < 4 * SENT; i++) {
      await addCatalogEntry(context.store(), {
        isbn13: inventedIsbn(9000 + i),
        title: `Catalog Book ${i}`,
        authors: ['B. Author'],
      });
    }
    const isbn = (i: number) => inventedIsbn(9000 + i);
    await capsEachAddress('books', 302, (i, ip) => send('GET', `/isbn/${isbn(i)}`, ip));

    // Past its cap an address still reaches every book that exists, and a search page still answers.
    const ip = freshIpv4();
    for (let i = 0; i < CAP; i++)
      assert.equal((await send('GET', `/isbn/${isbn(2 * SENT + 1 + i)}`, ip)).status, 302);
    const refused = await send('GET', `/isbn/${isbn(3 * SENT)}`, ip, undefined, { accept: 'text/html' });
    assert.equal(refused.status, 429);
    assert.match(await refused.text(), /new book pages/);
    assert.equal((await send('GET', `/isbn/${isbn(0)}`, ip)).status, 302, 'an existing book still opens');
    const booksBefore = await rows('books');
    const search = await send('GET', `/search?q=${isbn(3 * SENT + 1)}`, ip);
    assert.equal(search.status, 200, 'the search page answers instead of creating the book');
    const resolved = await send(
      'GET',
      `/api/v1/resolve?url=${encodeURIComponent(`https://www.amazon.com/dp/${isbn(3 * SENT + 2)}`)}`,
      ip,
    );
    assert.equal(resolved.status, 429);
    assert.equal(await rows('books'), booksBefore);
  });

  it('clicks: past the cap the reader still goes to the store, the click is not stored', async () => {
    const isbn = inventedIsbn(7777);
    await addCatalogEntry(context.store(), { isbn13: isbn, title: 'Clicked Book', authors: ['C. Author'] });
    const visit = await send('GET', `/isbn/${isbn}`, freshIpv4());
    const slug = (visit.headers.get('location') ?? '').replace('/book/', '');
    assert.ok(slug, 'the book exists');
    const clicks = async () => {
      await t.services.clicks.flush();
      return rows('clicks');
    };
    const before = await clicks();
    const ip = freshIpv4();
    const statuses = await flood(
      SENT,
      () => ip,
      () => send('GET', `/go/${slug}/worldcat`, ip),
    );
    assert.deepEqual(statuses, Array(SENT).fill(302), 'every click still redirects');
    assert.equal(await clicks(), before + CAP);
    const fromIpv6 = await flood(SENT, freshIpv6(), (_, address) =>
      send('GET', `/go/${slug}/worldcat`, address),
    );
    assert.deepEqual(fromIpv6, Array(SENT).fill(302));
    assert.equal(await clicks(), before + 2 * CAP);
    assert.equal((await send('GET', `/go/${slug}/worldcat`, freshIpv4())).status, 302);
    assert.equal(await clicks(), before + 2 * CAP + 1, 'another address is still counted');
  });

  it('the search log: past the cap a search is answered alike, only not logged (page and API share the cap)', async () => {
    const logged = async () => {
      await t.services.searchLog.flush();
      return rows('searches');
    };
    const before = await logged();
    const ip = freshIpv4();
    const pages = await flood(
      SENT,
      () => ip,
      (i) => send('GET', `/search?q=${encodeURIComponent(`zzqx nowhere ${i}`)}`, ip),
    );
    assert.deepEqual(pages, Array(SENT).fill(200));
    assert.equal(await logged(), before + CAP);
    const unlogged = await (await send('GET', '/search?q=zzqx+nowhere+again', ip)).text();
    assert.match(unlogged, /data-sfid=""/, 'past the cap the page carries no search id');
    const api = await flood(SENT, freshIpv6(), (i, address) =>
      send('GET', `/api/v1/search?q=zzqx+api+${i}`, address),
    );
    assert.deepEqual(api, Array(SENT).fill(200));
    assert.equal(await logged(), before + 2 * CAP);
    assert.equal((await send('GET', '/search?q=zzqx+other', freshIpv4())).status, 200);
    assert.equal(await logged(), before + 2 * CAP + 1, 'another address is still logged');
  });

  it('/metrics counts refusals and merged repeats by kind', async () => {
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    for (const kind of WRITE_KINDS) {
      const refused = new RegExp(`booklink_write_refusals_total\\{kind="${kind}"\\} (\\d+)`).exec(text);
      assert.ok(refused && Number(refused[1]) > 0, `refusals of ${kind}`);
    }
    assert.match(text, /booklink_write_duplicates_total\{kind="miss"\} [1-9]/);
  });
});
