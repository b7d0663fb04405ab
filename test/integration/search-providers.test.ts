import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

interface SearchBody {
  status: string;
  results: Array<{ title: string; authors: string[]; isbn: string | null }>;
}

/**
 * Search for books the local catalog does not hold, through real HTTP, against fake providers
 * that answer like the real APIs: every query word must match, nothing corrects spelling.
 */
describeEachDialect('search through the providers', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  const api = async (q: string) => {
    const response = await t.get(`/api/v1/search?q=${encodeURIComponent(q)}&limit=5`);
    assert.equal(response.status, 200);
    return (await response.json()) as SearchBody;
  };
  const asked = (service: 'openlibrary' | 'googlebooks') =>
    fake.requests(service).map((path) => new URL(path, 'http://x').searchParams.get('q') ?? '');

  before(async () => {
    fake = await startFakeProviders();
    const store = context.store();
    t = await startTestApp(store, {
      ...fake.env,
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
      PROVIDER_TIMEOUT_MS: '800',
      RATE_LIMIT_ANON: '10000',
    });
    await addCatalogEntry(store, {
      isbn13: '9780000000019',
      title: 'Slow River',
      authors: ['Nicola Griffith'],
      popularity: 5000,
    });
    await addCatalogEntry(store, {
      isbn13: '9780000000026',
      title: 'The Night Ferry',
      authors: ['Anna Kell'],
      popularity: 3000,
      identifiers: { series: 'Harbour Lights, #1' },
    });
  });
  beforeEach(() => fake.reset());
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('corrects the spelling of a query before asking the providers for a book only they know', async () => {
    fake.addBook({
      isbn13: '9780141321004',
      title: 'Treasure Island',
      authors: ['Robert Louis Stevenson'],
      publishedDate: '1883',
    });
    const body = await api('treasue islnad');
    assert.equal(body.status, 'found');
    assert.equal(body.results[0]?.title, 'Treasure Island');
    assert.ok(asked('openlibrary').includes('treasure island'), 'asked with the corrected words');
    // A person's search goes straight to the book, created from the provider's record.
    const page = await t.get(`/search?q=${encodeURIComponent('treasue islnad')}`);
    assert.equal(page.status, 302);
    assert.match(
      page.headers.get('location') ?? '',
      /^\/book\/treasure-island-robert-louis-stevenson\?sfid=\d+$/,
    );
  });

  it('asks a series by its name and chooses the volume by the number in the answers', async () => {
    for (const [i, title] of ['The Ember Gate', 'The Salt Crown', 'The Last Lantern'].entries()) {
      fake.addBook({
        isbn13: ['9780000001016', '9780000001023', '9780000001030'][i] ?? '',
        title,
        subtitle: `Ashfall Chronicles, Book ${i + 1}`,
        authors: ['Mara Quill'],
        only: ['googlebooks'],
      });
    }
    assert.equal((await api('ashfall chronicles 2')).results[0]?.title, 'The Salt Crown');
    assert.equal((await api('ashfall chronicles book 3')).results[0]?.title, 'The Last Lantern');
    assert.ok(asked('googlebooks').includes('ashfall chronicles'), 'asked by the series name');
  });

  it('chooses the volume by Google’s own series data (seriesInfo) when no title or subtitle names the series', async () => {
    const series = { id: 'zBgqGwAAABDnAM', name: 'Ironwood' };
    for (const [i, title] of ['Ironwood', 'The Glass Orchard', 'Ember Road'].entries()) {
      fake.addBook({
        isbn13: ['9780000003010', '9780000003027', '9780000003034'][i] ?? '',
        title,
        authors: ['Tove Brandt'],
        googleSeries: { ...series, number: i + 1 },
        only: ['googlebooks'],
      });
    }
    assert.equal((await api('ironwood 2')).results[0]?.title, 'The Glass Orchard');
    assert.equal((await api('ironwood book 3')).results[0]?.title, 'Ember Road');
    // The first volume bears the series' name: the reader goes straight to the volume asked for.
    const page = await t.get(`/search?q=${encodeURIComponent('ironwood book 3')}`);
    assert.equal(page.status, 302);
    assert.match(page.headers.get('location') ?? '', /^\/book\/ember-road-tove-brandt/);
  });

  it('ranks a volume Google places in a series named only by the words asked, but does not redirect to it', async () => {
    for (const [i, title] of ['Cold Harbour', 'The Quiet Ledger'].entries()) {
      fake.addBook({
        isbn13: ['9780000004017', '9780000004024'][i] ?? '',
        title,
        authors: ['Ines Farrow'],
        googleSeries: { id: 'mdkgGwAAABC4wM', name: 'Inspector Vahl', number: i + 1 },
        only: ['googlebooks'],
      });
    }
    assert.equal((await api('inspector vahl 2')).results[0]?.title, 'The Quiet Ledger');
    const page = await t.get(`/search?q=${encodeURIComponent('inspector vahl 2')}`);
    assert.equal(page.status, 200, 'a series name no volume confirms is never a confident redirect');
  });

  it('finds a volume no answer names by its order among its author’s works, and does not redirect to it', async () => {
    // Volumes 1 and 3 print the series in a Google subtitle; volume 2 carries no series anywhere,
    // as most real answers do. Open Library gives each work its first_publish_year.
    const volumes = [
      { isbn13: '9780000005014', title: 'The Copper Wren', subtitle: 'Lantern Street Mysteries, Book 1' },
      { isbn13: '9780000005021', title: 'A Pocket of Rain' },
      { isbn13: '9780000005038', title: 'The Ninth Bell', subtitle: 'Lantern Street Mysteries, Book 3' },
    ];
    for (const [i, volume] of volumes.entries()) {
      fake.addBook({ ...volume, authors: ['Odile Marsh'], publishedDate: String(2012 + i) });
    }
    const body = await api('lantern street mysteries 2');
    assert.equal(body.results[0]?.title, 'A Pocket of Rain');
    const authorQuestions = () =>
      fake
        .requests('openlibrary')
        .filter((path) => new URL(path, 'http://x').searchParams.get('author') === 'Odile Marsh');
    assert.equal(authorQuestions().length, 1, 'the series’ author is asked for every work, once');
    const page = await t.get(`/search?q=${encodeURIComponent('lantern street mysteries 2')}`);
    assert.equal(page.status, 200, 'a volume placed by its order alone is never a confident redirect');
    // A volume the answers name needs no further question.
    assert.equal((await api('lantern street mysteries book 3')).results[0]?.title, 'The Ninth Bell');
    assert.equal(authorQuestions().length, 1);
  });

  it('finds a volume typed with a series name the catalog knows', async () => {
    fake.addBook({ isbn13: '9780000002020', title: 'Low Tide', authors: ['Anna Kell'] });
    const body = await api('low tide harbour lights');
    assert.equal(body.results[0]?.title, 'Low Tide');
    assert.ok(asked('openlibrary').includes('low tide'), 'asked without the series name');
  });

  it('answers an ISBN only the providers know on /api/v1/search, without creating a book', async () => {
    fake.addBook({
      isbn13: '9780316030571',
      title: 'Use of Weapons',
      authors: ['Iain M. Banks'],
      only: ['openlibrary'],
    });
    const body = await api('978-0-316-03057-1');
    assert.equal(body.status, 'found');
    assert.deepEqual(
      body.results.map((r) => [r.title, r.isbn]),
      [['Use of Weapons', '9780316030571']],
    );
    const saved = await context
      .store()
      .db.selectFrom('books')
      .select('id')
      .where('isbn13', '=', '9780316030571')
      .execute();
    assert.equal(saved.length, 0, 'the API never creates books');
  });

  it('retries with fewer words when the strict query finds nothing, and does not redirect', async () => {
    fake.addBook({ isbn13: '9780000003034', title: 'The Glass Orchard', authors: ['Ida Penn'] });
    const body = await api('the glass orchard hardback');
    assert.equal(body.results[0]?.title, 'The Glass Orchard');
    const questions = asked('openlibrary');
    assert.ok(questions.includes('the glass orchard hardback'), 'asked as typed first');
    assert.ok(questions.includes('the glass orchard'), 'then without a word');
    const page = await t.get(`/search?q=${encodeURIComponent('the glass orchard hardback')}`);
    assert.equal(page.status, 200, 'a relaxed match is shown, never redirected to');
    assert.match(await page.text(), /The Glass Orchard/);
  });

  it('asks the providers once for a repeated query', async () => {
    fake.addBook({ isbn13: '9780000004017', title: 'Copper Weather', authors: ['Lu Marsh'] });
    assert.equal((await api('copper weather')).results[0]?.title, 'Copper Weather');
    const count = fake.requestCount();
    assert.ok(count > 0);
    assert.equal((await api('Copper  Weather!')).results[0]?.title, 'Copper Weather');
    assert.equal(fake.requestCount(), count, 'the second answer came from the cache');
  });

  it('answers from the local catalog when a provider hangs or fails', async () => {
    fake.addBook({ isbn13: '9780000005014', title: 'Slow River Delta', authors: ['Ben Oak'] });
    fake.setFailure('openlibrary', { hang: true });
    fake.setFailure('googlebooks', { status: 503 });
    fake.setFailure('itunes', { delayMs: 5000 });
    const body = await api('slow river griffith novel');
    assert.equal(body.status, 'found');
    assert.equal(body.results[0]?.title, 'Slow River');
    const page = await t.get(`/search?q=${encodeURIComponent('slow river griffith novel')}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Slow River/);
    // Once the providers answer again, the same words are asked again (a failure is not cached).
    fake.setFailure('openlibrary', null);
    fake.setFailure('googlebooks', null);
    fake.setFailure('itunes', null);
    const before = fake.requestCount('openlibrary');
    await api('slow river griffith novel');
    assert.ok(fake.requestCount('openlibrary') > before);
  });
});
