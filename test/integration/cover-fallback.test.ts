import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

interface CoverBody {
  status: string;
  cover_url: string | null;
  source: string | null;
}

describeEachDialect('/api/v1/cover-fallback', (context) => {
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

  it('finds an Open Library cover when Google has none, and updates the book', async () => {
    await addCatalogEntry(context.store(), {
      isbn13: '9780261103573',
      title: 'The Fellowship of the Ring',
      authors: ['J.R.R. Tolkien'],
      coverUrl: 'https://images.covers-example.org/nophoto/book/111x148.png',
    });
    const created = await t.get('/isbn/9780261103573');
    const slug = (created.headers.get('location') ?? '').replace('/book/', '');
    fake.addBook({ isbn13: '9780261103573', title: 'The Fellowship of the Ring', only: ['openlibrary'] });
    const response = await t.get(`/api/v1/cover-fallback?isbn=9780261103573&slug=${slug}`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as CoverBody;
    assert.equal(body.status, 'found');
    assert.equal(body.source, 'openlibrary');
    assert.equal(
      body.cover_url,
      `${fake.urls.openLibraryCoversUrl}/b/isbn/9780261103573-L.jpg?default=false`,
    );
    const book = await context
      .store()
      .db.selectFrom('books')
      .select('cover_url')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    assert.equal(book.cover_url, body.cover_url);
    const page = await (await t.get(`/book/${slug}`)).text();
    assert.ok(
      page.includes(body.cover_url?.replace(/&/g, '&amp;') ?? 'missing'),
      'the page shows the new cover at once',
    );
  });

  it('prefers Google Books and caches the outcome', async () => {
    fake.addBook({
      isbn13: '9780553283686',
      title: 'Hyperion',
      authors: ['Dan Simmons'],
      only: ['googlebooks', 'openlibrary'],
    });
    const first = (await (await t.get('/api/v1/cover-fallback?isbn=0553283685')).json()) as CoverBody;
    assert.equal(first.source, 'googlebooks');
    const asked = fake.requestCount();
    const again = (await (await t.get('/api/v1/cover-fallback?isbn=9780553283686')).json()) as CoverBody;
    assert.deepEqual(again, first);
    assert.equal(fake.requestCount(), asked, 'a cached outcome asks no provider');
  });

  it('says not_found when no provider has a cover', async () => {
    const body = (await (
      await t.get('/api/v1/cover-fallback?isbn=9781234567897&title=Nothing')
    ).json()) as CoverBody;
    assert.deepEqual(body, { status: 'not_found', cover_url: null, source: null });
  });

  it('validates its parameters with the SPEC 7 body', async () => {
    const cases: Array<[string, string, unknown[]]> = [
      ['/api/v1/cover-fallback', 'missing', ['query', 'isbn']],
      ['/api/v1/cover-fallback?isbn=123', 'string_too_short', ['query', 'isbn']],
      ['/api/v1/cover-fallback?isbn=97805532836861', 'string_too_long', ['query', 'isbn']],
      ['/api/v1/cover-fallback?isbn=9780553283687', 'isbn_invalid', ['query', 'isbn']],
      [
        `/api/v1/cover-fallback?isbn=9780553283686&slug=${'s'.repeat(81)}`,
        'string_too_long',
        ['query', 'slug'],
      ],
      [
        `/api/v1/cover-fallback?isbn=9780553283686&title=${'t'.repeat(301)}`,
        'string_too_long',
        ['query', 'title'],
      ],
    ];
    for (const [path, type, loc] of cases) {
      const response = await t.get(path);
      assert.equal(response.status, 422, path);
      const body = (await response.json()) as { detail: Array<{ type: string; loc: unknown[] }> };
      assert.equal(body.detail[0]?.type, type, path);
      assert.deepEqual(body.detail[0]?.loc, loc, path);
    }
  });
});
