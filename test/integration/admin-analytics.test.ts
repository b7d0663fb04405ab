import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { analyticsCsv, dashboard } from '../../src/services/admin/analytics.js';
import { rollAll } from '../../src/store/analytics-rollup.js';
import type { TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { AdminClient, addBook, addUser, startAdminApp } from './admin-support.js';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describeEachDialect('admin analytics', (context) => {
  let t: TestApp;
  let client: AdminClient;
  let bookId = 0;
  before(async () => {
    t = await startAdminApp(context.store());
    await addUser(context.store(), 'admin@example.test', 'admin');
    bookId = await addBook(context.store(), { slug: 'counted', title: 'Counted <b>Book</b>' });
    const rows = [0, 0, 1, 2, 5, 5, 5, 40].map((ago, i) => ({
      book_id: bookId,
      destination_id: i % 2 === 0 ? 1 : 2,
      sfid: null,
      country: i % 2 === 0 ? 'US' : null,
      referrer_host: i < 3 ? 'news.example' : null,
      created_at: daysAgo(ago),
    }));
    await context.store().db.insertInto('clicks').values(rows).execute();
    await context
      .store()
      .db.withTables<{
        searches: {
          query: string;
          query_key: string;
          kind: string;
          result_count: number;
          channel: string;
          created_at: string;
        };
      }>()
      .insertInto('searches')
      .values({
        query: 'unfindable tome',
        query_key: 'unfindable tome',
        kind: 'text',
        result_count: 0,
        channel: 'page',
        created_at: daysAgo(1),
      })
      .execute();
    client = new AdminClient(t);
    await client.login('admin@example.test');
  });
  after(() => t.close());

  it('rolls up finished days and counts the same as the raw clicks', async () => {
    const db = context.store().db;
    await rollAll(db);
    assert.equal(await rollAll(db), 0, 'a second roll-up has nothing to do');
    const csv = await analyticsCsv(db, 'destination', 30);
    assert.equal(csv, 'destination,label,clicks\n1,Bookshop.org,4\n2,Amazon,3\n');
    const days = (await analyticsCsv(db, 'day', 30)).split('\n');
    assert.equal(days[0], 'day,clicks');
    assert.equal(days.at(-1), '', 'the last line ends with a newline too');
    assert.equal(
      days.slice(1, -1).reduce((sum, line) => sum + Number(line.split(',')[1]), 0),
      7,
    );
    assert.equal((await dashboard(db, 30)).total, 7);
  });

  it('shows charts, top lists and searches to fix, escaped', async () => {
    const page = await client.get('/admin?days=30');
    assert.equal(page.status, 200);
    assert.match(page.body, /<svg class="chart"/);
    assert.match(page.body, /<strong>7<\/strong> clicks/);
    assert.match(page.body, /Counted &lt;b&gt;Book&lt;\/b&gt;/);
    assert.match(page.body, /news\.example/);
    assert.match(page.body, /unfindable tome/);
    assert.match(page.body, /href="\/admin\/pins\?query=unfindable%20tome"/);
    const year = await client.get('/admin?days=365');
    assert.match(year.body, /<strong>8<\/strong> clicks/);
  });

  it('exports CSV', async () => {
    const response = await fetch(`${t.baseUrl}/admin/analytics.csv?by=book&days=30`, {
      headers: { cookie: `bl_admin=${client.sessionToken()}` },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/csv/);
    assert.equal(await response.text(), `book,label,clicks\n${bookId},Counted <b>Book</b>,7\n`);
  });
});
