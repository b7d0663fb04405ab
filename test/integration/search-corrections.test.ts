import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { forgetListedWords } from '../../src/services/search/listed-words.js';
import { retrieveCandidates } from '../../src/services/search/retrieval.js';
import { openStore } from '../../src/store/db.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { bookRecord, inventedIsbn } from '../support/factories.js';

const scratch = mkdtempSync(join(tmpdir(), 'booklink-search-corrections-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const isbn = inventedIsbn;

let files = 0;
function csv(rows: ReadonlyArray<readonly [isbn13: string, title: string, author: string]>): string {
  const file = join(scratch, `${++files}.csv`);
  writeFileSync(file, `isbn13,title,authors\n${rows.map((row) => row.join(',')).join('\n')}\n`);
  return file;
}

const options = { coversBaseUrl: 'https://covers.test/' };

/** Words no entry holds, each a made-up one starting "qz": more than one prefix's words are kept. */
const QZ_WORDS = 5_100;
const qzWord = (n: number) => `qz${n.toString(36).padStart(3, 'a')}x`;

/**
 * Spelling corrections read the listed words (`catalog_terms`) by prefix; the words of each prefix are
 * kept per connection until the next import lists them again. Both databases, through real imports.
 */
describeEachDialect('search corrections from the listed words', (context) => {
  const titles = async (tokens: string[]) =>
    (await retrieveCandidates(context.store(), tokens)).entries.map((entry) => entry.title);

  before(async () => {
    await importCatalogFile(
      context.store(),
      csv([
        [isbn(1), 'The Lighthouse Keeper', 'Mara Quill'],
        [isbn(2), 'Lightning Over Harrowgate', 'Dev Orme'],
        [isbn(3), 'Café Stories', 'Lena Brook'],
      ]),
      options,
    );
  });

  it('corrects a misspelt word from the listed words, the same on every search', async () => {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await titles(['lighthuose', 'keeper']), ['The Lighthouse Keeper']);
      assert.deepEqual(await titles(['harrowgte']), ['Lightning Over Harrowgate']);
    }
    // Folded as the index folds it ("café" is listed as "cafe"), corrected within one edit.
    assert.deepEqual(await titles(['cafr', 'stories']), ['Café Stories']);
  });

  it('sees the words of an import that ends after it read their prefix', async () => {
    // Nothing listed is near "lamplightre" yet: its prefixes' words are read, and kept.
    assert.deepEqual(await titles(['lamplightre']), []);
    await importCatalogFile(context.store(), csv([[isbn(4), 'The Lamplighter', 'Ivo Pike']]), options);
    assert.deepEqual(await titles(['lamplightre']), ['The Lamplighter']);
  });

  it("sees another process's import once told the catalog changed", async () => {
    assert.deepEqual(await titles(['marigld']), []);
    // Another process (`booklink import`) on the same database, with a connection of its own.
    const other = openStore(context.url());
    try {
      await importCatalogFile(other, csv([[isbn(5), 'Marigold Lane', 'Ivo Pike']]), options);
    } finally {
      await other.close();
    }
    // What the server hears from Redis when that import ends (the `catalog-changed` change).
    forgetListedWords(context.store());
    assert.deepEqual(await titles(['marigld']), ['Marigold Lane']);
  });

  it('corrects within a prefix of more words than are kept', async () => {
    const rows = Array.from(
      { length: QZ_WORDS },
      (_, i) => [isbn(1000 + i), `${qzWord(i)} notes`, 'Ann Field'] as const,
    );
    await importCatalogFile(context.store(), csv(rows), options);
    // One edit from the 42nd word, and nearer to it than to any other.
    const wanted = qzWord(42);
    const typo = `${wanted.slice(0, -1)}y`;
    const found = await titles([typo, 'notes']);
    assert.ok(found.includes(`${wanted} notes`), `${typo}: ${found.slice(0, 5).join('; ')}`);
  });
});

/**
 * The words' counts that corrections weigh are remembered between searches (listed-words.ts,
 * `WordCounts`); a saved book's words count from the moment it is saved. Through the services, as a
 * reader's first visit saves a book.
 */
describeEachDialect('search corrections and the saved books', (context) => {
  let t: TestApp;
  before(async () => {
    // No answer cache: each search below is retrieved again.
    t = await startTestApp(context.store(), { SEARCH_CACHE_MS: '0' });
    await importCatalogFile(context.store(), csv([[isbn(40), 'Gilded Orchard', 'Mara Quill']]), options);
  });
  after(() => t.close());

  const titles = async (text: string) =>
    (await t.services.search.search(text)).results.map((result) => result.record.title);

  it('counts the words of a book saved after they were counted', async () => {
    // Nothing holds "gilder": the words as typed find nothing, and "gilded" is read instead, the
    // second time by the counts the first search kept.
    for (let i = 0; i < 2; i++) assert.deepEqual(await titles('gilder orchard'), ['Gilded Orchard']);
    await t.services.creator.createFromRecord(
      bookRecord({ isbn13: isbn(41), title: 'Gilder Orchard', authors: ['Ivo Pike'] }),
    );
    // A saved book holds "gilder" now: no misspelling, so nothing is read in its place.
    assert.deepEqual(await titles('gilder orchard'), ['Gilder Orchard']);
  });
});
