import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

describeEachDialect('/isbn/{isbn}', (context) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(context.store());
    await addCatalogEntry(context.store(), {
      isbn13: '9780439023481',
      isbn10: '0439023483',
      title: 'The Hunger Games (The Hunger Games, #1)',
      authors: ['Suzanne Collins'],
    });
    await addCatalogEntry(context.store(), {
      isbn13: '9780547928227',
      title: 'The Hobbit',
      authors: ['J.R.R. Tolkien'],
    });
    await addCatalogEntry(context.store(), {
      isbn13: '9780316769488',
      title: 'The Catcher in the Rye',
      authors: ['J.D. Salinger'],
    });
  });
  after(() => t.close());

  it('creates a book from the local catalog and redirects to its page', async () => {
    const response = await t.get('/isbn/9780439023481');
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), '/book/the-hunger-games-suzanne-collins');
  });

  it('sends the second visit, the hyphenated form and the ISBN-10 to the same slug', async () => {
    for (const form of [
      '9780439023481',
      '978-0-439-02348-1',
      '0439023483',
      '0-439-02348-3',
      '978%200439%20023481',
    ]) {
      const response = await t.get(`/isbn/${form}`);
      assert.equal(response.status, 302, form);
      assert.equal(response.headers.get('location'), '/book/the-hunger-games-suzanne-collins', form);
    }
    const count = await context
      .store()
      .db.selectFrom('books')
      .select(sql<number>`count(*)`.as('n'))
      .where('isbn13', '=', '9780439023481')
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
  });

  it('answers 422 with the SPEC 7 body for a malformed ISBN', async () => {
    const response = await t.get('/isbn/9780439023482');
    assert.equal(response.status, 422);
    const body = (await response.json()) as { detail: Array<{ loc: unknown[]; type: string; msg: string }> };
    assert.deepEqual(body.detail[0]?.loc, ['path', 'isbn']);
    assert.equal(body.detail[0]?.type, 'isbn_invalid');
    const tooShort = await t.get('/isbn/123');
    assert.equal(tooShort.status, 422);
    const short = (await tooShort.json()) as { detail: Array<{ type: string; ctx: unknown }> };
    assert.equal(short.detail[0]?.type, 'string_too_short');
    assert.deepEqual(short.detail[0]?.ctx, { min_length: 10 });
  });

  it('gives a 404 page for an ISBN no source knows', async () => {
    const response = await t.get('/isbn/9780000000002');
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await response.text(), /9780000000002/);
  });

  it('never lets a bot create a book, but lets it reach an existing one', async () => {
    const uncreated = await t.get('/isbn/9780547928227', { 'user-agent': BOT_UA });
    assert.equal(uncreated.status, 404);
    const selfDescribed = await t.get('/isbn/9780547928227', { 'user-agent': 'MyLittleScraper/1.0' });
    assert.equal(selfDescribed.status, 404);
    assert.equal(
      await context
        .store()
        .db.selectFrom('books')
        .select('id')
        .where('isbn13', '=', '9780547928227')
        .executeTakeFirst(),
      undefined,
    );
    const human = await t.get('/isbn/9780547928227');
    assert.equal(human.status, 302);
    const bot = await t.get('/isbn/9780547928227', { 'user-agent': BOT_UA });
    assert.equal(bot.status, 302);
    assert.equal(bot.headers.get('location'), '/book/the-hobbit-j-r-r-tolkien');
  });

  it('makes exactly one book from 50 simultaneous first visits', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => t.get('/isbn/9780316769488')));
    const locations = new Set(responses.map((response) => response.headers.get('location')));
    assert.deepEqual([...locations], ['/book/the-catcher-in-the-rye-j-d-salinger']);
    const rows = await context
      .store()
      .db.selectFrom('books')
      .select('id')
      .where('isbn13', '=', '9780316769488')
      .execute();
    assert.equal(rows.length, 1);
  });

  it('refuses a Referer equal to the bare service origin and allows CORS from anywhere', async () => {
    const refused = await t.get('/isbn/9780439023481', { referer: 'http://booklink.test' });
    assert.equal(refused.status, 403);
    const withPath = await t.get('/isbn/9780439023481', { referer: 'http://booklink.test/' });
    assert.equal(withPath.status, 302);
    const other = await t.get('/isbn/9780439023481', {
      referer: 'https://blog.example/post',
      origin: 'https://blog.example',
    });
    assert.equal(other.headers.get('access-control-allow-origin'), '*');
  });
});
