import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import {
  formatImportSummary,
  type ImportOptions,
  importCatalogFile,
} from '../../src/catalog/import/index.js';
import { retrieveCandidates } from '../../src/services/search/retrieval.js';
import type { Store } from '../../src/store/db.js';
import { describeEachDialect } from '../support/databases.js';

const fixtures = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'booklink-import-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
/** A private copy, so runs recorded for one test never make another's file "already imported". */
function copy(name: string, as = name): string {
  const file = join(scratch, `${++copies}-${as}`);
  copyFileSync(join(fixtures, name), file);
  return file;
}

const options: ImportOptions = { coversBaseUrl: 'https://covers.test/' };

/** PostgreSQL's `enable_mergejoin` on four connections of the pool at once. */
async function mergeJoins(store: Store): Promise<string[]> {
  const settings = await Promise.all(
    Array.from({ length: 4 }, () =>
      sql<{ enable_mergejoin: string }>`show enable_mergejoin`.execute(store.db),
    ),
  );
  return settings.map((result) => result.rows[0]?.enable_mergejoin ?? '');
}

async function keys(store: Store): Promise<string[]> {
  const rows = await store.db
    .selectFrom('catalog_entries')
    .select('entry_key')
    .orderBy('entry_key')
    .execute();
  return rows.map((row) => row.entry_key);
}

async function entry(store: Store, key: string) {
  return store.db
    .selectFrom('catalog_entries')
    .selectAll()
    .where('entry_key', '=', key)
    .executeTakeFirstOrThrow();
}

describeEachDialect('catalog import', (context) => {
  beforeEach(async () => {
    await context.store().db.deleteFrom('catalog_entries').execute();
    await context.store().db.deleteFrom('import_runs').execute();
  });

  it('imports a Goodreads books.csv, counting skips by reason', async () => {
    const summary = await importCatalogFile(context.store(), copy('goodreads-books.csv'), options);
    assert.equal(summary.format, 'csv');
    assert.equal(summary.rowsRead, 7);
    assert.equal(summary.imported, 4);
    assert.deepEqual(summary.skipped, { no_valid_isbn: 2, missing_title: 1 });
    assert.deepEqual(await keys(context.store()), [
      'isbn:9780071255837',
      'isbn:9780991273645',
      'isbn:9780991273812',
      'isbn:9780991274024',
    ]);
    const orchard = await entry(context.store(), 'isbn:9780991274024');
    assert.equal(orchard.cover_url, null, 'nophoto placeholder is no cover');
    assert.equal(orchard.popularity, 1204331);
    assert.match(formatImportSummary(summary), /skipped no_valid_isbn: 2/);
  });

  it('imports Open Library editions with author keys and cover URLs', async () => {
    const summary = await importCatalogFile(context.store(), copy('ol-editions.txt'), options);
    assert.equal(summary.format, 'openlibrary');
    assert.equal(summary.imported, 2);
    assert.deepEqual(summary.skipped, {
      no_valid_isbn: 1,
      missing_title: 1,
      not_an_edition: 2,
      invalid_json: 1,
    });
    const fox = await entry(context.store(), 'isbn:9780140328721');
    assert.equal(fox.cover_url, 'https://covers.test/b/id/8739161-L.jpg');
    assert.equal(fox.description, 'A fox outwits three farmers.');
    const proceedings = await entry(context.store(), 'isbn:9780991275007');
    assert.equal(proceedings.authors, '[]');
    assert.equal(JSON.parse(proceedings.identifiers).ol_authors, 'OL9900002A,OL9900003A');
  });

  it('imports JSONL and the Gutenberg catalogue', async () => {
    const jsonl = await importCatalogFile(context.store(), copy('books.jsonl'), options);
    assert.equal(jsonl.imported, 2);
    assert.deepEqual(jsonl.skipped, { no_valid_isbn: 1, missing_title: 1, invalid_json: 2 });
    const gutenberg = await importCatalogFile(context.store(), copy('pg_catalog.csv'), options);
    assert.equal(gutenberg.format, 'gutenberg');
    assert.equal(gutenberg.imported, 5);
    assert.deepEqual(gutenberg.skipped, { not_a_text: 1, missing_title: 1 });
    const alice = await entry(context.store(), 'gutenberg:11');
    assert.equal(alice.authors, '["Lewis Carroll","John Tenniel"]');
    assert.equal(alice.match_key, 'alices adventures in wonderland|carroll');
  });

  it('reads gzip by its magic bytes, whatever the name', async () => {
    const file = join(scratch, 'editions.data');
    writeFileSync(file, gzipSync(readFileSync(join(fixtures, 'ol-editions.txt'))));
    const summary = await importCatalogFile(context.store(), file, options);
    assert.equal(summary.format, 'openlibrary');
    assert.equal(summary.imported, 2);
  });

  it('updates an entry on re-import instead of duplicating it, merging identifiers', async () => {
    await importCatalogFile(context.store(), copy('derived-books.csv'), options);
    await importCatalogFile(context.store(), copy('goodreads-books.csv'), options);
    await importCatalogFile(context.store(), copy('books.jsonl'), options);
    const all = await keys(context.store());
    assert.equal(new Set(all).size, all.length);
    assert.equal(all.length, 6);
    const lamplighter = await entry(context.store(), 'isbn:9780991273645');
    assert.equal(lamplighter.popularity, 3120457, 'the derived file had no ratings; books.csv did');
    const fox = await entry(context.store(), 'isbn:9780140328721');
    assert.equal(fox.pages, 96);
  });

  for (const parseInWorker of [false, true]) {
    const where = parseInWorker ? 'in a worker thread' : 'in this thread';
    it(`resumes an interrupted import without duplicates, then reports it finished (parsing ${where})`, async () => {
      const file = copy('goodreads-books.csv');
      let batches = 0;
      const interrupted = importCatalogFile(context.store(), file, {
        ...options,
        parseInWorker,
        batchSize: 3,
        onProgress: () => {
          if (++batches === 1) throw new Error('killed');
        },
      });
      await assert.rejects(interrupted, /killed/);
      assert.equal((await keys(context.store())).length, 3, 'the first batch of 3 rows committed');

      let resumedFrom = -1;
      const resumed = await importCatalogFile(context.store(), file, {
        ...options,
        parseInWorker,
        batchSize: 3,
        onStart: (start) => {
          resumedFrom = start.resumedFromRow;
        },
      });
      assert.equal(resumedFrom, 3);
      assert.equal(resumed.resumedFromRow, 3);
      assert.equal(resumed.rowsThisRun, 4);
      assert.equal(resumed.rowsRead, 7);
      assert.equal(resumed.imported, 4);
      assert.deepEqual(resumed.skipped, { no_valid_isbn: 2, missing_title: 1 });
      assert.equal((await keys(context.store())).length, 4);

      const again = await importCatalogFile(context.store(), file, { ...options, parseInWorker });
      assert.equal(again.status, 'already_finished');
      assert.match(formatImportSummary(again), /--restart/);
      const restarted = await importCatalogFile(context.store(), file, {
        ...options,
        parseInWorker,
        restart: true,
      });
      assert.equal(restarted.status, 'completed');
      assert.equal(restarted.imported, 4);
      assert.equal((await keys(context.store())).length, 4);
    });
  }

  it('writes a batch longer than one statement, and its remainder, with every identifier on its own entry', async () => {
    // 1,234 rows in one batch: on SQLite an upsert of 1,000 rows, then the remainder in statements of
    // 100, 10 and 1 (2 + 3 + 4 of them); each returns ids the identifier rows must be filed under.
    const count = 1234;
    const isbn13 = (n: number) => {
      const body = `978${String(n).padStart(9, '0')}`;
      let sum = 0;
      for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
      return `${body}${(10 - (sum % 10)) % 10}`;
    };
    const lines = ['isbn13,title,authors,goodreads_book_id'];
    for (let n = 1; n <= count; n++) lines.push(`${isbn13(n)},Book Number ${n},Author ${n},${700000 + n}`);
    const file = join(scratch, `${++copies}-many.csv`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const summary = await importCatalogFile(context.store(), file, { ...options, batchSize: 5000 });
    assert.equal(summary.imported, count);
    const rows = await context
      .store()
      .db.selectFrom('catalog_identifiers as i')
      .innerJoin('catalog_entries as e', 'e.id', 'i.entry_id')
      .select(['i.value', 'e.title', 'e.isbn13'])
      .where('i.scheme', '=', 'goodreads')
      .execute();
    assert.equal(rows.length, count);
    for (const row of rows) {
      const n = Number(row.value) - 700000;
      assert.equal(row.title, `Book Number ${n}`);
      assert.equal(row.isbn13, isbn13(n));
    }
  });

  it('fails a batch whose statement the database refuses while the next is queued, losing nothing', async () => {
    // 12,000 rows in one batch: on PostgreSQL three COPY statements of up to 5,000, each sent while
    // the next is queued; the row that the trigger refuses is in the second.
    const store = context.store();
    const refuse =
      store.dialect === 'sqlite'
        ? [
            `create trigger refuse_boom before insert on catalog_entries when new.title = 'Boom'
             begin select raise(abort, 'boom refused'); end`,
          ]
        : [
            `create function refuse_boom() returns trigger language plpgsql as $$
             begin if new.title = 'Boom' then raise exception 'boom refused'; end if; return new; end $$`,
            `create trigger refuse_boom before insert on catalog_entries for each row execute function refuse_boom()`,
          ];
    const allow =
      store.dialect === 'sqlite'
        ? ['drop trigger refuse_boom']
        : ['drop trigger refuse_boom on catalog_entries', 'drop function refuse_boom()'];
    const lines = ['isbn13,title,authors'];
    for (let n = 1; n <= 12000; n++) {
      const body = `979${String(n).padStart(9, '0')}`;
      let sum = 0;
      for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
      lines.push(`${body}${(10 - (sum % 10)) % 10},${n === 7500 ? 'Boom' : `Title ${n}`},Author ${n}`);
    }
    const file = join(scratch, `${++copies}-refused.csv`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    for (const statement of refuse) await sql.raw(statement).execute(store.db);
    try {
      await assert.rejects(importCatalogFile(store, file, { ...options, batchSize: 20000 }), /boom refused/);
    } finally {
      for (const statement of allow) await sql.raw(statement).execute(store.db);
    }
    assert.deepEqual(await keys(store), []);
    if (store.dialect === 'postgres')
      assert.deepEqual(await mergeJoins(store), ['on', 'on', 'on', 'on'], 'after the refused statement');
    const summary = await importCatalogFile(store, file, { ...options, batchSize: 20000 });
    assert.equal(summary.imported, 12000);
    assert.equal((await keys(store)).length, 12000);
    assert.equal((await entry(store, `isbn:${lines[7500]?.split(',')[0]}`)).title, 'Boom');
    // PostgreSQL's merge turns merge joins off for its own statement; the pool's connections keep them.
    if (store.dialect === 'postgres')
      assert.deepEqual(await mergeJoins(store), ['on', 'on', 'on', 'on'], 'after the import');
  });

  it('keeps the search index in step across batches and re-imports', async () => {
    const file = copy('derived-books.csv');
    const summary = await importCatalogFile(context.store(), file, { ...options, batchSize: 2 });
    assert.equal(summary.imported, 2);
    const isbns = async (words: string[]) =>
      (await retrieveCandidates(context.store(), words)).entries.map((entry) => entry.isbn13);
    assert.ok((await isbns(['lamplighter', 'apprentice'])).includes('9780991273645'));
    assert.ok((await isbns(['tarrant'])).includes('9780991273812'));
    // A later import renames an entry: a word only the old title had must stop matching (the series
    // and original title it keeps are searchable too), and the new title must match.
    assert.ok((await isbns(['moonlit'])).includes('9780991273812'));
    const renamed = join(scratch, 'renamed.csv');
    writeFileSync(renamed, 'isbn13,title,authors\n9780991273812,Zyxwv Quorble,Rosalind Tarrant\n');
    await importCatalogFile(context.store(), renamed, options);
    assert.ok((await isbns(['zyxwv', 'quorble'])).includes('9780991273812'));
    assert.ok(!(await isbns(['moonlit'])).includes('9780991273812'));
  });

  it('reports an unknown CSV header from the worker thread as an ImportError', async () => {
    const file = join(scratch, 'no-title.csv');
    writeFileSync(file, 'isbn13,authors\n9780991273645,Mirren Kestrel\n');
    await assert.rejects(importCatalogFile(context.store(), file, { ...options, parseInWorker: true }), {
      name: 'ImportError',
      code: 'unknown_format',
    });
  });

  it('fails clearly on a missing file or an unknown format', async () => {
    await assert.rejects(importCatalogFile(context.store(), join(scratch, 'nope.csv'), options), {
      name: 'ImportError',
      code: 'file_not_found',
    });
    const file = join(scratch, 'notes.txt');
    writeFileSync(file, 'hello\nworld\n');
    await assert.rejects(importCatalogFile(context.store(), file, options), {
      name: 'ImportError',
      code: 'unknown_format',
    });
  });
});
