import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { rollAll } from '../../src/store/analytics-rollup.js';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { AdminClient, addUser } from './admin-support.js';

const UK_READER = { 'accept-language': 'en-GB,en;q=0.8' };

/** The row of the affiliate page for one store (`amazon`, `amazon.GB`). */
function storeRow(page: string, key: string, attribute = 'data-store'): string {
  const start = page.indexOf(`<tr ${attribute}="${key}"`);
  assert.ok(start >= 0, `the page has a row for ${key}`);
  return page.slice(start, page.indexOf('</tr>', start));
}

/** The destination id of a store's row form. */
function destinationIdOf(page: string, key: string): string {
  const id = /name="destination_id" value="(\d+)"/.exec(storeRow(page, key))?.[1];
  assert.ok(id, `the row of ${key} has a form`);
  return id;
}

/** The number cells of a row, in order. */
const numbers = (row: string) => [...row.matchAll(/<td class="num"[^>]*>([\d,]+)<\/td>/g)].map((m) => m[1]);

describeEachDialect('affiliate tags in the admin area, and what earns', (context) => {
  let t: TestApp;
  let admin: AdminClient;
  let slug = '';
  let bookId = 0;

  async function go(path: string, headers: Record<string, string> = {}): Promise<URL> {
    const response = await t.get(path, headers);
    assert.equal(response.status, 302, `${path} answers a redirect`);
    return new URL(response.headers.get('location') ?? '');
  }

  async function flushed() {
    // Twice: a flush that finds the timer's write already running may resolve before it.
    await t.services.clicks.flush();
    await t.services.clicks.flush();
    await t.services.visits.flush();
  }

  async function audit(action: string) {
    return t.store.db
      .selectFrom('audit_log')
      .select(['entity_id', 'before_json', 'after_json', 'user_email'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();
  }

  before(async () => {
    t = await startTestApp(
      context.store(),
      { AFFILIATE_TAGS: 'amazon=fromenv-20' },
      { clickFlushIntervalMs: 20 },
    );
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      publishedDate: '2002-12-31',
      format: 'paperback',
    });
    const created = await t.get('/isbn/9780141439518');
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
    const row = await t.store.db
      .selectFrom('books')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    bookId = Number(row.id);
    await addUser(context.store(), 'admin@example.test', 'admin');
    await addUser(context.store(), 'editor@example.test', 'editor');
    admin = new AdminClient(t);
    await admin.login('admin@example.test');
  });
  after(() => t.close());

  it('shows every store with where its tag comes from, and warns where clicks go out untagged', async () => {
    const page = await admin.get('/admin/affiliate');
    assert.equal(page.status, 200);
    const amazon = storeRow(page.body, 'amazon');
    assert.match(amazon, /from the environment/);
    assert.match(amazon, /fromenv-20/, 'the environment tag is shown, not an empty field');
    assert.doesNotMatch(amazon, /name="tag"/, 'an environment tag is changed in the environment');
    assert.match(storeRow(page.body, 'kindle'), /no tag: clicks go out untagged/);
    assert.match(storeRow(page.body, 'audible'), /no affiliate parameter/);
    assert.match(storeRow(page.body, 'amazon.GB'), /amazon\.co\.uk/);
    assert.match(storeRow(page.body, 'amazon.GB'), /no tag: clicks go out untagged/);
    assert.match(page.body, /Every click of the last 30 days carried a tag/);

    // The destination's own page shows the environment's tag too, not only an empty field.
    const amazonPage = await admin.get(`/admin/destinations/${destinationIdOf(page.body, 'amazon.GB')}`);
    const inUse = amazonPage.body.slice(amazonPage.body.indexOf('data-role="tags-in-use"'));
    assert.match(
      inUse,
      /<td>Default store<\/td><td class="mono">fromenv-20<\/td>\s*<td><span class="tag">from the environment<\/span>/,
    );
    assert.match(inUse, /<td>GB<\/td><td class="mono">—<\/td>\s*<td><span class="tag tag--warn">no tag/);
  });

  it('is for admins only', async () => {
    const editor = new AdminClient(t);
    await editor.login('editor@example.test');
    assert.equal((await editor.get('/admin/affiliate')).status, 403);
    const refused = await editor.post('/admin/affiliate/tags', {
      destination_id: '2',
      country: 'GB',
      tag: 'x-21',
    });
    assert.equal(refused.status, 403);
    assert.equal(
      (await editor.get('/admin/earnings')).status,
      200,
      'what earns is analytics: editors see it',
    );
  });

  it('sets a storefront tag (audited) that /go/ and the book page apply at once', async () => {
    const page = await admin.get('/admin/affiliate');
    const amazonId = destinationIdOf(page.body, 'amazon.GB');
    assert.equal(
      (await go(`/go/${slug}/amazon?country=GB`)).searchParams.get('tag'),
      null,
      'no GB tag before',
    );
    const saved = await admin.post('/admin/affiliate/tags', {
      destination_id: amazonId,
      country: 'GB',
      tag: 'shopuk-21',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, '/admin/affiliate?notice=saved');
    const target = await go(`/go/${slug}/amazon?country=GB`);
    assert.equal(target.hostname, 'www.amazon.co.uk');
    assert.equal(target.searchParams.get('tag'), 'shopuk-21');

    const bookPage = await (await t.get(`/book/${slug}`, UK_READER)).text();
    const link = new RegExp(`href="(/go/${slug}/amazon\\?[^"]*)"`).exec(bookPage)?.[1];
    assert.ok(link, 'the UK page links to amazon through /go/');
    const followed = await go(link.replaceAll('&amp;', '&'), UK_READER);
    assert.equal(followed.hostname, 'www.amazon.co.uk');
    assert.equal(followed.searchParams.get('tag'), 'shopuk-21');

    const records = await audit('affiliate.tag.set');
    assert.equal(records.length, 1);
    assert.equal(records[0]?.entity_id, 'amazon.GB');
    assert.equal(records[0]?.user_email, 'admin@example.test');
    assert.equal(records[0]?.before_json, null);
    assert.deepEqual(JSON.parse(records[0]?.after_json ?? 'null'), { tag: 'shopuk-21' });
    assert.match(storeRow((await admin.get('/admin/affiliate')).body, 'amazon.GB'), /set here/);
  });

  it('keeps the environment over a tag set here, and says so', async () => {
    const page = await admin.get('/admin/affiliate');
    const amazonId = destinationIdOf(page.body, 'amazon.GB');
    const saved = await admin.post('/admin/affiliate/tags', {
      destination_id: amazonId,
      country: '',
      tag: 'stored-20',
    });
    assert.equal(saved.status, 303);
    assert.equal((await go(`/go/${slug}/amazon`)).searchParams.get('tag'), 'fromenv-20');
    const row = storeRow((await admin.get('/admin/affiliate')).body, 'amazon');
    assert.match(row, /from the environment/);
    assert.match(row, /set here: <span class="mono">stored-20<\/span>/);
  });

  it('refuses a bad tag or a storefront the store does not have, beside the row', async () => {
    const page = await admin.get('/admin/affiliate');
    const kindleId = destinationIdOf(page.body, 'kindle');
    const bad = await admin.post('/admin/affiliate/tags', {
      destination_id: kindleId,
      country: '',
      tag: 'a b<c',
    });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /Letters, digits/);
    const nowhere = await admin.post('/admin/affiliate/tags', {
      destination_id: kindleId,
      country: 'US',
      tag: 'x',
    });
    assert.equal(nowhere.status, 422);
    assert.match(nowhere.body, /no storefront in that country/);
    assert.equal((await audit('affiliate.tag.set')).length, 2, 'nothing refused is audited');
  });

  it('records the storefront and the tag of each click, and lists the untagged stores with counts', async () => {
    await go(`/go/${slug}/amazon?country=GB`); // tagged
    await go(`/go/${slug}/kindle?country=GB`); // kindle.GB: no tag
    await go(`/go/${slug}/kindle?country=GB`);
    await go(`/go/${slug}/audible`); // no affiliate parameter at all
    await go(`/go/${slug}/amazon`, { 'user-agent': BOT_UA }); // bots are not counted
    await flushed();
    const clicks = await t.store.db
      .selectFrom('clicks')
      .innerJoin('destinations', 'destinations.id', 'clicks.destination_id')
      .select(['destinations.slug', 'clicks.storefront', 'clicks.tag_kind'])
      .orderBy('clicks.id')
      .execute();
    const kinds = clicks.map((c) => `${c.slug}|${c.storefront}|${c.tag_kind}`);
    assert.ok(kinds.includes('amazon|GB|operator'));
    assert.ok(kinds.includes('amazon||operator'), 'the environment tag counts as the operator’s');
    assert.equal(kinds.filter((k) => k === 'kindle|GB|none').length, 2);
    assert.ok(kinds.includes('audible||none'));

    const page = (await admin.get('/admin/affiliate')).body;
    const untagged = page.slice(
      page.indexOf('data-role="untagged"'),
      page.indexOf('</table>', page.indexOf('data-role="untagged"')),
    );
    assert.match(storeRow(untagged, 'kindle.GB', 'data-untagged'), /<td class="num"[^>]*>2<\/td>/);
    assert.match(storeRow(untagged, 'kindle.GB', 'data-untagged'), /No tag is set/);
    assert.match(storeRow(untagged, 'audible', 'data-untagged'), /<td class="num"[^>]*>1<\/td>/);
    assert.match(storeRow(untagged, 'audible', 'data-untagged'), /no affiliate parameter/);
    // The one GB click made before the tag was set.
    assert.match(storeRow(untagged, 'amazon.GB', 'data-untagged'), /<td class="num"[^>]*>1<\/td>/);
    assert.match(storeRow(untagged, 'amazon.GB', 'data-untagged'), /A tag is set now/);
    assert.doesNotMatch(
      untagged,
      /data-store="amazon"/,
      'a store whose clicks all carried the tag is not listed',
    );

    // The same figures once the days are rolled up (two days on, read from click_daily).
    const later = new Date(Date.now() + 2 * 86_400_000);
    await rollAll(t.store.db, later);
    const rolled = await t.services.admin.affiliate.overview(later);
    assert.deepEqual(
      rolled.untagged.map((row) => [row.destinationSlug, row.country, row.none]),
      [
        ['kindle', 'GB', 2],
        ['amazon', 'GB', 1],
        ['audible', null, 1],
      ],
    );
  });

  it('shows what earns per store and per book, on screen and in CSV', async () => {
    for (let i = 0; i < 3; i += 1) await t.get(`/book/${slug}`);
    await t.get(`/book/${slug}`, { 'user-agent': BOT_UA });
    await flushed();
    const page = await admin.get('/admin/earnings?days=30');
    assert.equal(page.status, 200);
    const stores = page.body.slice(page.body.indexOf('data-role="stores"'));
    assert.deepEqual(numbers(storeRow(stores, 'amazon.GB')).slice(0, 3), ['3', '0', '1']);
    assert.deepEqual(numbers(storeRow(stores, 'kindle.GB')).slice(0, 3), ['0', '0', '2']);
    assert.match(storeRow(stores, 'amazon.GB'), /class="stack--operator"/, 'a stacked bar per store');

    const csv = await admin.get('/admin/earnings/stores.csv?days=30');
    assert.equal(csv.status, 200);
    const lines = csv.body.trim().split('\n');
    assert.equal(
      lines[0],
      'destination,storefront,name,with_operator_tag,with_partner_tag,without_tag,not_recorded',
    );
    assert.ok(lines.includes('amazon,GB,Amazon,3,0,1,0'), csv.body);
    assert.ok(lines.includes('kindle,GB,Amazon Kindle,0,0,2,0'), csv.body);
    assert.ok(lines.includes('audible,,Audible,0,0,1,0'), csv.body);

    // Reader visits: the UK page visit and the three plain ones; the bot's is not counted.
    const books = await admin.get('/admin/earnings/books.csv?days=30');
    const clicks = 4 + 2 + 1 + 1; // amazon GB ×4, kindle GB ×2, audible, amazon default
    const visits = 4;
    assert.ok(
      books.body.includes(
        `${bookId},${slug},Pride and Prejudice,${visits},${clicks},${(clicks / visits).toFixed(4)}\n`,
      ),
      books.body,
    );
    const bookRow = page.body.slice(page.body.indexOf(`<tr data-book="${bookId}"`));
    assert.deepEqual(numbers(bookRow).slice(0, 2), [String(visits), String(clicks)]);
    assert.match(bookRow, /200\.0 %/);
  });

  it("shows a book's cover and its own figures on its admin page", async () => {
    await t.store.db
      .updateTable('books')
      .set({ cover_url: 'https://covers.example.test/pp.jpg' })
      .where('id', '=', bookId)
      .execute();
    const page = await admin.get(`/admin/books/${bookId}`);
    assert.equal(page.status, 200);
    assert.match(
      page.body,
      /<img class="admin-cover" src="https:\/\/covers\.example\.test\/pp\.jpg" alt="Cover of Pride and Prejudice"/,
    );
    assert.match(page.body, /<dd data-figure="visits">4<\/dd>/);
    assert.match(page.body, /<dd data-figure="clicks">8<\/dd>/);
    assert.match(page.body, /<dd data-figure="click-through">200\.0 %<\/dd>/);
    assert.match(page.body, /Amazon Kindle/);
  });

  it('removes a tag by saving it empty (audited); links go out without it again', async () => {
    const page = await admin.get('/admin/affiliate');
    const amazonId = destinationIdOf(page.body, 'amazon.GB');
    const removed = await admin.post('/admin/affiliate/tags', {
      destination_id: amazonId,
      country: 'GB',
      tag: '',
    });
    assert.equal(removed.status, 303);
    assert.equal((await go(`/go/${slug}/amazon?country=GB`)).searchParams.get('tag'), null);
    const records = await audit('affiliate.tag.remove');
    assert.equal(records.length, 1);
    assert.equal(records[0]?.entity_id, 'amazon.GB');
    assert.deepEqual(JSON.parse(records[0]?.before_json ?? 'null'), { tag: 'shopuk-21' });
  });
});
