import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { refreshSearchStatistics } from '../../src/store/search/vocabulary.js';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

describeEachDialect('GET /search', (context) => {
  let t: TestApp;
  const bookCount = async (isbn13: string) => {
    const row = await context
      .store()
      .db.selectFrom('books')
      .select(sql<number>`count(*)`.as('n'))
      .where('isbn13', '=', isbn13)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  before(async () => {
    const store = context.store();
    t = await startTestApp(store);
    await addCatalogEntry(store, {
      isbn13: '9780439023481',
      title: 'The Hunger Games (The Hunger Games, #1)',
      authors: ['Suzanne Collins'],
      popularity: 4_000_000,
      coverUrl: 'https://covers.example/hg.jpg',
      publishedDate: '2008-09-14',
    });
    await addCatalogEntry(store, {
      isbn13: '9780439023498',
      title: 'Catching Fire (The Hunger Games, #2)',
      authors: ['Suzanne Collins'],
      popularity: 2_000_000,
    });
    await addCatalogEntry(store, {
      isbn13: '9780547928227',
      title: 'The Hobbit',
      authors: ['J.R.R. Tolkien'],
      popularity: 2_500_000,
    });
    await addCatalogEntry(store, {
      isbn13: '9780618640157',
      title: 'The Fellowship of the Ring',
      authors: ['J.R.R. Tolkien'],
      popularity: 1_000_000,
    });
    await addCatalogEntry(store, {
      isbn13: '9780345339706',
      title: 'The Two Towers',
      authors: ['J.R.R. Tolkien'],
      popularity: 900_000,
    });
  });
  after(() => t.close());

  it('goes straight to the book on a confident match, creating it for a human, with the sfid', async () => {
    const response = await t.get('/search?q=the%20hobbit%20by%20tolkien');
    assert.equal(response.status, 302);
    const location = response.headers.get('location') ?? '';
    assert.match(location, /^\/book\/the-hobbit-j-r-r-tolkien\?sfid=\d+$/);
    const sfid = Number(location.split('sfid=')[1]);
    const logged = await context
      .store()
      .db.selectFrom('searches')
      .selectAll()
      .where('id', '=', sfid)
      .executeTakeFirstOrThrow();
    assert.equal(logged.query, 'the hobbit by tolkien');
    assert.equal(logged.parsed_author, 'tolkien');
    assert.equal(logged.channel, 'page');
    assert.equal(await bookCount('9780547928227'), 1);
  });

  it('redirects an ISBN in any spelling', async () => {
    const response = await t.get(`/search?q=${encodeURIComponent('978-0-439-02348-1')}`);
    assert.equal(response.status, 302);
    assert.match(
      response.headers.get('location') ?? '',
      /^\/book\/the-hunger-games-suzanne-collins\?sfid=\d+$/,
    );
  });

  it('shows a results page with covers, authors, years and pick links carrying the sfid', async () => {
    const response = await t.get('/search?q=tolkien');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    const page = await response.text();
    const sfid = /data-sfid="(\d+)"/.exec(page)?.[1];
    assert.ok(sfid);
    assert.match(page, new RegExp(`href="/search\\?q=tolkien&amp;pick=1&amp;sfid=${sfid}"`));
    assert.match(page, /The Fellowship of the Ring/);
    assert.match(page, /J\.R\.R\. Tolkien/);
    const hunger = await (await t.get('/search?q=suzanne%20collins')).text();
    assert.match(hunger, /<img class="search-result__cover" src="https:\/\/covers\.example\/hg\.jpg"/);
    assert.match(hunger, /2008/);
  });

  it('lets a pick create the book for a human, and gives a bot the 404 page', async () => {
    const page = await (await t.get('/search?q=tolkien')).text();
    const links = [...page.matchAll(/href="(\/search\?q=tolkien&amp;pick=\d+&amp;sfid=\d+)"/g)].map((m) =>
      m[1]!.replace(/&amp;/g, '&'),
    );
    const towers = links.find((_, i) => page.split('search-result__link')[i + 1]?.includes('The Two Towers'));
    assert.ok(towers);
    const bot = await t.get(towers, { 'user-agent': BOT_UA });
    assert.equal(bot.status, 404);
    assert.equal(await bookCount('9780345339706'), 0);
    const scraper = await t.get(towers, { 'user-agent': 'FriendlyScraper/2.0' });
    assert.equal(scraper.status, 404);
    const human = await t.get(towers);
    assert.equal(human.status, 302);
    assert.match(human.headers.get('location') ?? '', /^\/book\/the-two-towers-j-r-r-tolkien\?sfid=\d+$/);
    assert.equal(human.headers.get('location')?.split('sfid=')[1], towers.split('sfid=')[1]);
    assert.equal(await bookCount('9780345339706'), 1);
    const botLater = await t.get(towers, { 'user-agent': BOT_UA });
    assert.equal(botLater.status, 302, 'a bot may reach a book that exists');
  });

  it('never lets a bot create through a confident match, even with human=1', async () => {
    const response = await t.get('/search?q=catching%20fire&human=1', { 'user-agent': BOT_UA });
    assert.equal(response.status, 200);
    assert.equal(await bookCount('9780439023498'), 0);
  });

  it('answers an empty state with a working "can\'t find my book" form', async () => {
    const response = await t.get('/search?q=zzyzx%20qwertyuiop');
    assert.equal(response.status, 200);
    const page = await response.text();
    assert.match(page, /No books match/);
    assert.match(page, /<form class="search-miss" action="\/search\/miss" method="post"/);
    const sfid = /name="sfid" value="(\d+)"/.exec(page)?.[1];
    const form = new URLSearchParams({
      query: 'zzyzx qwertyuiop',
      result_count: '0',
      sfid: sfid ?? '',
      details: 'A poetry pamphlet',
    });
    const posted = await fetch(`${t.baseUrl}/search/miss`, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(posted.status, 201);
    assert.match(await posted.text(), /Thank you/);
    const miss = await context
      .store()
      .db.selectFrom('search_misses')
      .selectAll()
      .where('query', '=', 'zzyzx qwertyuiop')
      .executeTakeFirstOrThrow();
    assert.equal(miss.sfid, Number(sfid));
    assert.equal(miss.details, 'A poetry pamphlet');
  });

  it('sends a URL to resolve and checks its limits', async () => {
    const url = await t.get(`/search?q=${encodeURIComponent('https://www.amazon.com/dp/0439023483')}`);
    assert.equal(url.status, 302);
    assert.match(url.headers.get('location') ?? '', /^\/resolve\?url=https%3A%2F%2Fwww\.amazon\.com/);
    const long = await t.get(`/search?q=${'a'.repeat(501)}`);
    assert.equal(long.status, 422);
    const body = (await long.json()) as { detail: Array<{ loc: unknown[]; type: string }> };
    assert.deepEqual(body.detail[0]?.loc, ['query', 'q']);
    assert.equal((await t.get('/search?q=dune&pick=0')).status, 422);
    assert.equal((await t.get('/search?q=dune&pick=abc')).status, 422);
  });

  it('says which reading it shows when the local catalog answered a respelt or shortened query (issue 44)', async () => {
    // As every import leaves it: the catalog's word list, which corrections read on either database.
    await refreshSearchStatistics(context.store());
    // "tolkein" is in no title or author: retrieval corrects it to "tolkien" and drops "zzyzx".
    const respelt = await t.get('/search?q=Tolkein%20towers%20zzyzx');
    assert.equal(respelt.status, 200);
    const page = await respelt.text();
    assert.match(page, /The Two Towers/);
    assert.match(page, /data-read-as="tolkien towers"/);
    assert.match(page, /href="\/search\?q=Tolkein\+towers\+zzyzx&amp;exact=1"/);
    // The words as typed: no correction, no dropped word, so nothing matches and no reading is named.
    const typed = await (await t.get('/search?q=Tolkein%20towers%20zzyzx&exact=1')).text();
    assert.doesNotMatch(typed, /data-read-as/);
    assert.doesNotMatch(typed, /The Two Towers/);
    // Words that match as typed name no reading.
    assert.doesNotMatch(await (await t.get('/search?q=tolkien')).text(), /data-read-as/);
  });
});
