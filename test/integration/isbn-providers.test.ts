import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

describeEachDialect('/isbn/{isbn} from remote providers', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), {
      ...fake.env,
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('creates a book only Open Library knows, with its metadata', async () => {
    fake.addBook({
      isbn13: '9780316030571',
      title: 'Use of Weapons',
      authors: ['Iain M. Banks'],
      publisher: 'Orbit',
      publishedDate: '2008-06-01',
      pages: 411,
      only: ['openlibrary'],
    });
    const response = await t.get('/isbn/978-0-316-03057-1');
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), '/book/use-of-weapons-iain-m-banks');
    const book = await context
      .store()
      .db.selectFrom('books')
      .selectAll()
      .where('isbn13', '=', '9780316030571')
      .executeTakeFirstOrThrow();
    assert.equal(book.publisher, 'Orbit');
    assert.equal(book.pages, 411);
    const page = await (await t.get('/book/use-of-weapons-iain-m-banks')).text();
    assert.match(page, /Use of Weapons/);
  });

  it('creates a book only Google Books knows', async () => {
    fake.addBook({
      isbn13: '9784815602666',
      title: '宇宙の話をしよう',
      authors: ['野田 祥代'],
      only: ['googlebooks'],
    });
    const response = await t.get('/isbn/9784815602666');
    assert.equal(response.status, 302);
    const location = decodeURIComponent(response.headers.get('location') ?? '');
    assert.equal(location, '/book/宇宙の話をしよう-野田-祥代');
  });

  it('answers 404 for an ISBN nobody knows and does not ask again at once', async () => {
    const first = await t.get('/isbn/9781234567897');
    assert.equal(first.status, 404);
    const asked = fake.requestCount();
    const second = await t.get('/isbn/9781234567897');
    assert.equal(second.status, 404);
    assert.equal(fake.requestCount(), asked, 'the remembered miss asks no provider');
  });

  it('still creates from a provider that answers while another fails', async () => {
    fake.setFailure('googlebooks', { status: 500 });
    fake.addBook({
      isbn13: '9780553283686',
      title: 'Hyperion',
      authors: ['Dan Simmons'],
      only: ['openlibrary', 'googlebooks'],
    });
    const response = await t.get('/isbn/9780553283686');
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), '/book/hyperion-dan-simmons');
    fake.setFailure('googlebooks', null);
  });
});
