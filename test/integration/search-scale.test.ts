import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { listedMatches, spelledPrefix } from '../../src/services/search/listed-words.js';
import { retrieveCandidates } from '../../src/services/search/retrieval.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, inventedIsbn } from '../support/factories.js';

const scratch = mkdtempSync(join(tmpdir(), 'booklink-search-scale-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const isbn = inventedIsbn;

let files = 0;
function csv(
  rows: ReadonlyArray<readonly [isbn13: string, title: string, author: string, ratings: number]>,
): string {
  const file = join(scratch, `${++files}.csv`);
  const lines = rows.map(([isbn13, title, author, ratings]) => `${isbn13},${title},${author},${ratings}`);
  writeFileSync(file, `isbn13,title,authors,ratings_count\n${lines.join('\n')}\n`);
  return file;
}

const options = { coversBaseUrl: 'https://covers.test/' };
/** More entries holding "garden" than text rank orders (RANKED_POOL in store/search.ts). */
const COMMON = 2100;
const SECRET_GARDEN = isbn(999_999);

/**
 * A common word in a catalog of millions matches hundreds of thousands of entries: retrieval reads
 * them most popular first and stops, instead of ordering them all. Both databases, through a real import.
 */
describeEachDialect('search on a catalog where a word is common', (context) => {
  const titles = async (tokens: string[]) => {
    const found = await retrieveCandidates(context.store(), tokens);
    return found.entries.map((entry) => entry.title);
  };

  before(async () => {
    const rows = Array.from(
      { length: COMMON },
      (_, i) => [isbn(i), `Notes from the Garden, Volume ${i}`, 'Ann Field', 0] as const,
    );
    // Imported last and unrated: the highest id of every match, and the least popular.
    await importCatalogFile(
      context.store(),
      csv([...rows, [SECRET_GARDEN, 'The Secret Garden', 'Frances Hodgson Burnett', 0]]),
      options,
    );
  });

  it('leaves out an unrated match beyond the ranked share, and reaches it once it is popular', async () => {
    assert.ok(!(await titles(['garden'])).includes('The Secret Garden'));
    // A later import rates it: its full-text row moves to the front of the word's matches.
    await importCatalogFile(
      context.store(),
      csv([[SECRET_GARDEN, 'The Secret Garden', 'Frances Hodgson Burnett', 900_000]]),
      options,
    );
    const found = await titles(['garden']);
    assert.ok(found.includes('The Secret Garden'), `not among ${found.length} candidates`);
    assert.ok(found.length <= 60, `${found.length} candidates for one word`);
    // Its title is the best text match too: text rank orders the most popular matches, it among them.
    assert.equal(found[0], 'The Secret Garden');
  });

  it('finds every rated match of two common words, however many unrated ones match first', async () => {
    // Two words: no walk down the popularity index. The unrated matches are read only in part.
    await importCatalogFile(
      context.store(),
      csv([[isbn(777_777), 'Rated Notes from the Garden', 'Ann Field', 500]]),
      options,
    );
    const found = await titles(['notes', 'garden']);
    assert.ok(found.includes('Rated Notes from the Garden'), `not among ${found.length} candidates`);
    assert.ok(found.length <= 60, `${found.length} candidates for two words`);
  });

  if (context.dialect === 'postgres') {
    it('runs without JIT compilation, which the blind estimates of prefixes set off', async () => {
      const store = context.store();
      // Every connection of the pool, the ones opened concurrently included.
      const settings = await Promise.all(
        Array.from({ length: 4 }, () => sql<{ jit: string }>`show jit`.execute(store.db)),
      );
      assert.deepEqual(
        settings.map((result) => result.rows[0]?.jit),
        ['off', 'off', 'off', 'off'],
      );
    });
  }

  if (context.dialect === 'postgres') {
    it('estimates matches and spells out prefixes from the remembered word list, read again after an import', async () => {
      const db = context.store().db;
      const listed = async (word: string) =>
        Number(
          (await sql<{ doc: number }>`select doc from catalog_terms where term = ${word}`.execute(db)).rows[0]
            ?.doc ?? 0,
        );
      const [notes, garden] = [await listed('notes'), await listed('garden')];
      assert.equal(await listedMatches(db, [['notes'], ['garden']], 'and', false), Math.min(notes, garden));
      assert.equal(await listedMatches(db, [['notes'], ['garden']], 'or', false), notes + garden);
      // "gard" as a prefix: every listed word it starts ("garden" alone here).
      assert.equal(await listedMatches(db, [['gard']], 'and', true), garden);
      assert.deepEqual(await spelledPrefix(db, ['secre']), ['secre', 'secret']);
      await importCatalogFile(
        context.store(),
        csv([[isbn(666_666), 'The Secretary Bird', 'Ida Wren', 10]]),
        options,
      );
      assert.deepEqual(await spelledPrefix(db, ['secre']), ['secre', 'secret', 'secretary']);
      assert.equal(await listedMatches(db, [['gard']], 'and', true), garden);
    });
  }

  it('keeps the words of the index and their counts from the last import', async () => {
    const db = context.store().db;
    const counts = await sql<{ term: string; doc: number }>`select term, doc from catalog_terms
      where term in ('garden', 'notes', 'secret', 'burnett') order by term`.execute(db);
    assert.deepEqual(
      counts.rows.map((row) => [row.term, Number(row.doc)]),
      [
        ['burnett', 1],
        ['garden', COMMON + 2],
        ['notes', COMMON + 1],
        ['secret', 1],
      ],
    );
    // A misspelt word is corrected from that list.
    assert.ok((await titles(['secret', 'gardne'])).includes('The Secret Garden'));
  });

  it('counts a word added since the last import in the index itself', async () => {
    // Filed without an import (as a provider's answer is): the word list does not hold "zephyrine" yet.
    await addCatalogEntry(context.store(), {
      isbn13: isbn(888_888),
      title: "Zephyrine's Garden",
      authors: ['Ada Moss'],
    });
    // "gardne" is corrected; "zephyrine" is known to the index, so the query keeps it and finds the book.
    const found = await titles(['zephyrine', 'gardne']);
    assert.ok(found.includes("Zephyrine's Garden"), `not among ${found.length} candidates`);
  });
});

/** A catalog where every entry is rated (a curated list): one common word walks the popularity index. */
describeEachDialect('search on a rated catalog where a word is common', (context) => {
  before(async () => {
    const rows = Array.from(
      { length: 300 },
      (_, i) => [isbn(500_000 + i), `Lantern Tales ${i}`, 'Bo Reed', i + 1] as const,
    );
    await importCatalogFile(context.store(), csv(rows), options);
  });

  it('reads the most rated matches first', async () => {
    const found = await retrieveCandidates(context.store(), ['lantern']);
    const titles = found.entries.map((entry) => entry.title);
    assert.ok(titles.includes('Lantern Tales 299'), `not among ${titles.length} candidates`);
    assert.ok(titles.length <= 60, `${titles.length} candidates for one word`);
  });
});
