import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import {
  classifyDumps,
  type DumpFiles,
  type DumpsSummary,
  type FinishingEvent,
  importOpenLibraryDumps,
} from '../../src/catalog/import/index.js';
import { workerStagedLines } from '../../src/catalog/import/worker-rows.js';
import { findCatalogEntryByIdentifier } from '../../src/services/resolve/catalog-identifiers.js';
import { retrieveCandidates } from '../../src/services/search/retrieval.js';
import { catalogChecksum } from '../../src/store/catalog-checksum.js';
import { PROVIDER_SOURCE, saveProviderEntry } from '../../src/store/catalog-identifiers.js';
import { openStore, type Store } from '../../src/store/db.js';
import {
  catalogIndexesDeferred,
  DEFERRED_INDEXES_MARKER,
  deferCatalogIndexes,
  restoreCatalogIndexes,
} from '../../src/store/deferred-indexes.js';
import { backfillCatalogIdentifiers } from '../../src/store/migrations/0014-identifier-index.js';
import { olAuthorNames, olWorks, stageOlAuthors, stageOlWorks } from '../../src/store/openlibrary-staging.js';
import { createTestDatabase, describeEachDialect } from '../support/databases.js';
import { indexedIdentifiers } from '../support/factories.js';

// Small invented dumps in Open Library's format: type, key, revision, last_modified, JSON.
const scratch = mkdtempSync(join(tmpdir(), 'booklink-ol-dumps-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;

const MODIFIED = '2024-03-01T10:00:00.000000';
const datetime = (value: string) => ({ type: '/type/datetime', value });

function line(type: string, key: string, modified: string, record: Record<string, unknown>): string {
  const json = { ...record, key, type: { key: type }, revision: 3, last_modified: datetime(modified) };
  return [type, key, '3', modified, JSON.stringify(json)].join('\t');
}

const author = (id: string, name: string, modified = MODIFIED) =>
  line('/type/author', `/authors/${id}`, modified, { name, personal_name: name });

const work = (id: string, title: string, authors: string[], first?: string) =>
  line('/type/work', `/works/${id}`, MODIFIED, {
    title,
    ...(first ? { first_publish_date: first } : {}),
    authors: authors.map((a) => ({ type: { key: '/type/author_role' }, author: { key: `/authors/${a}` } })),
  });

interface EditionFields {
  id: string;
  title?: string;
  isbn13?: string[];
  isbn10?: string[];
  work?: string;
  authors?: string[];
  modified?: string;
  extra?: Record<string, unknown>;
}

function edition(fields: EditionFields): string {
  return line('/type/edition', `/books/${fields.id}`, fields.modified ?? MODIFIED, {
    ...(fields.title !== undefined ? { title: fields.title } : {}),
    ...(fields.isbn13 ? { isbn_13: fields.isbn13 } : {}),
    ...(fields.isbn10 ? { isbn_10: fields.isbn10 } : {}),
    ...(fields.work ? { works: [{ key: `/works/${fields.work}` }] } : {}),
    ...(fields.authors ? { authors: fields.authors.map((a) => ({ key: `/authors/${a}` })) } : {}),
    publishers: ['Invented Press'],
    publish_date: 'March 2004',
    ...fields.extra,
  });
}

const AUTHORS = [
  author('OL1A', 'Ada Quill'),
  author('OL2A', 'Bram Fenwick'),
  author('OL3A', 'Cora Lindqvist'),
];
const WORKS = [
  work('OL10W', 'The Lantern Keeper', ['OL1A'], '1921'),
  work('OL11W', 'Salt and Iron', ['OL2A', 'OL3A'], 'May 1955'),
];
const EDITIONS = [
  // Two editions of one work; the second names no author and takes the work's.
  edition({
    id: 'OL100M',
    title: 'The Lantern Keeper',
    isbn13: ['9780306406157'],
    isbn10: ['0306406152'],
    work: 'OL10W',
    authors: ['OL1A'],
    extra: {
      identifiers: { goodreads: ['4242'], librarything: ['77'], amazon: ['B00TESTASN'] },
      oclc_numbers: ['41333709', '99999901'],
      lccn: ['2004012345'],
    },
  }),
  edition({
    id: 'OL101M',
    title: 'The Lantern Keeper',
    isbn13: ['9781861972712'],
    work: 'OL10W',
    // Characters COPY's text format escapes arrive unchanged.
    extra: { subtitle: 'A back\\slash, a literal \\N and a\ttab' },
  }),
  // No ISBN: kept under its edition id, found by its Goodreads id.
  edition({
    id: 'OL102M',
    title: 'Salt and Iron',
    work: 'OL11W',
    authors: ['OL2A', 'OL3A'],
    extra: { identifiers: { goodreads: ['5151'] } },
  }),
  edition({ id: 'OL103M', title: 'Salt and Iron', isbn13: ['9780141439518'], work: 'OL11W' }),
  edition({ id: 'OL106M', isbn13: ['9780141439525'], work: 'OL11W' }),
  edition({
    id: 'OL104M',
    title: 'Harbour Charts',
    isbn13: ['9780000000002'],
    extra: { physical_format: 'Microfiche' },
  }),
  '/type/edition\t/books/OL105M\t1\t2024-01-01T00:00:00\t{not json',
  line('/type/delete', '/books/OL999M', MODIFIED, {}),
];

function write(name: string, lines: readonly string[], gzip = false): string {
  const file = join(scratch, `${++files}-${name}${gzip ? '.gz' : ''}`);
  const text = `${lines.join('\n')}\n`;
  writeFileSync(file, gzip ? gzipSync(text) : text);
  return file;
}

function dumps(editions = EDITIONS): DumpFiles {
  return {
    authors: write('authors.txt', AUTHORS),
    works: write('works.txt', WORKS),
    editions: write('editions.txt', editions),
  };
}

const options = { coversBaseUrl: 'https://covers.test' };

async function entry(store: Store, key: string) {
  return store.db.selectFrom('catalog_entries').selectAll().where('entry_key', '=', key).executeTakeFirst();
}

/** Row count and a hash of every entry and every indexed identifier, without ids and timestamps. */
const checksum = (store: Store) => catalogChecksum(store.db);

describeEachDialect('Open Library dumps import', (context) => {
  const store = () => context.store();

  const clear = async () => {
    for (const table of [
      'catalog_identifiers',
      'catalog_entries',
      'import_runs',
      'ol_authors',
      'ol_works',
    ] as const) {
      await store().db.deleteFrom(table).execute();
    }
  };
  beforeEach(clear);

  it('joins author names and works into each edition, keeps every identifier and counts skips', async () => {
    const summary = await importOpenLibraryDumps(store(), dumps(), options);
    const [authors, works, editions] = summary.files;
    assert.equal(authors?.imported, 3);
    assert.equal(works?.imported, 2);
    assert.equal(editions?.rowsRead, 8);
    assert.equal(editions?.imported, 4);
    assert.deepEqual(editions?.skipped, { missing_title: 1, not_a_book: 1, invalid_json: 1, deleted: 1 });

    const lantern = await entry(store(), 'isbn:9780306406157');
    assert.ok(lantern);
    assert.deepEqual(JSON.parse(lantern.authors), ['Ada Quill']);
    assert.equal(lantern.work_key, 'OL10W');
    assert.equal(lantern.work_title, 'The Lantern Keeper');
    assert.equal(lantern.first_year, 1921);
    assert.equal(lantern.source_modified, MODIFIED);
    assert.equal(lantern.match_key, 'lantern keeper|quill');
    const second = await entry(store(), 'isbn:9781861972712');
    assert.deepEqual(JSON.parse(second?.authors ?? '[]'), ['Ada Quill'], 'authors from the work');
    assert.equal(second?.work_key, 'OL10W', 'grouped with the other edition');
    assert.equal(second?.subtitle, 'A back\\slash, a literal \\N and a tab');
    const salt = await entry(store(), 'openlibrary:OL102M');
    assert.deepEqual(JSON.parse(salt?.authors ?? '[]'), ['Bram Fenwick', 'Cora Lindqvist']);
    assert.equal(salt?.isbn13, null);
    assert.equal(salt?.first_year, 1955);
    assert.equal(salt?.match_key, 'salt and iron|fenwick');

    // A first import builds the search index at the end: it is complete and nothing is left deferred.
    const found = await retrieveCandidates(store(), ['lantern', 'keeper']);
    assert.deepEqual(found.entries.map((e) => e.isbn13).sort(), ['9780306406157', '9781861972712']);
    assert.equal(await catalogIndexesDeferred(store().db), false);

    const indexed = await store()
      .db.selectFrom('catalog_identifiers')
      .select(['scheme', 'value'])
      .where('entry_id', '=', lantern.id)
      .orderBy('scheme')
      .orderBy('value')
      .execute();
    assert.deepEqual(
      indexed.map((row) => `${row.scheme}=${row.value}`),
      [
        'asin=B00TESTASN',
        'goodreads=4242',
        'isbn10=0306406152',
        'isbn13=9780306406157',
        'lccn=2004012345',
        'librarything=77',
        'oclc=41333709',
        'oclc=99999901',
        'ol_edition=OL100M',
        'ol_work=OL10W',
      ],
    );
  });

  it("joins names in the edition's order, once each, and keys the title with the first one's surname", async () => {
    const files = {
      authors: write('authors.txt', [
        ...AUTHORS,
        author('OL4A', 'Tolkien, J. R. R.'),
        // Another author record of a name already given: the name is listed once.
        author('OL5A', 'Ada Quill'),
        author('OL6A', 'Zoë "Zed" Ørsted\\'),
      ]),
      works: write('works.txt', WORKS),
      editions: write('editions.txt', [
        // OL9A is not in the authors dump: passed over.
        edition({
          id: 'OL110M',
          title: 'The Quiet Tower: A Novel',
          isbn13: ['9780000000019'],
          authors: ['OL9A', 'OL4A', 'OL1A', 'OL5A', 'OL6A'],
        }),
        edition({
          id: 'OL111M',
          title: 'Anonymous Verses',
          isbn13: ['9780000000026'],
          authors: ['OL9A'],
          extra: { by_statement: 'by Mara Holt' },
        }),
      ]),
    };
    await importOpenLibraryDumps(store(), files, options);
    const tower = await entry(store(), 'isbn:9780000000019');
    assert.deepEqual(JSON.parse(tower?.authors ?? '[]'), [
      'Tolkien, J. R. R.',
      'Ada Quill',
      'Zoë "Zed" Ørsted\\',
    ]);
    assert.equal(tower?.match_key, 'quiet tower|tolkien');
    assert.equal(tower?.work_title, null);
    // No name found: the entry keeps the names its own by-statement gave, and the key made with them.
    const verses = await entry(store(), 'isbn:9780000000026');
    assert.deepEqual(JSON.parse(verses?.authors ?? 'null'), ['Mara Holt']);
    assert.equal(verses?.match_key, 'anonymous verses|holt');
  });

  it('stages authors and works of any batch size, a key given twice keeping its last record', async () => {
    // 1,234 rows take statements of every size SQLite binds (1,000, 100, 10 and 1 rows).
    const authors = Array.from({ length: 1234 }, (_, i) => ({
      key: `OL${i}A`,
      name: `Author ${i}`,
      modified: i % 2 === 0 ? MODIFIED : null,
    }));
    authors.push({ key: 'OL7A', name: 'Author Seven, renamed', modified: null });
    const works = [
      { key: 'OL1W', title: null, firstYear: null, authorKeys: '', modified: null },
      {
        key: 'OL2W',
        title: 'Tabs\tand "quotes"',
        firstYear: 1901,
        authorKeys: 'OL1A,OL2A',
        modified: MODIFIED,
      },
    ];
    await store()
      .db.transaction()
      .execute(async (trx) => {
        await stageOlAuthors(trx, store(), authors);
        await stageOlWorks(trx, store(), works);
      });
    const keys = authors.map((a) => a.key);
    const names = await olAuthorNames(store().db, store(), keys);
    assert.equal(names.size, 1234);
    assert.equal(names.get('OL7A'), 'Author Seven, renamed');
    assert.equal(names.get('OL1233A'), 'Author 1233');
    const staged = await olWorks(store().db, store(), ['OL1W', 'OL2W', 'OL3W']);
    assert.deepEqual(staged.get('OL1W'), works[0]);
    assert.deepEqual(staged.get('OL2W'), works[1]);
    assert.equal(staged.has('OL3W'), false);
    const modified = await store()
      .db.selectFrom('ol_authors')
      .select(['author_key', 'last_modified'])
      .where('author_key', 'in', ['OL0A', 'OL1A'])
      .orderBy('author_key')
      .execute();
    assert.deepEqual(modified, [
      { author_key: 'OL0A', last_modified: MODIFIED },
      { author_key: 'OL1A', last_modified: null },
    ]);
  });

  it('parses the authors and works dumps in a worker thread to what this thread makes of them', async () => {
    const files = {
      ...dumps(),
      authors: write('authors.txt', [
        ...AUTHORS,
        '/type/author\t/authors/OL8A\t1\t2024-01-01T00:00:00\t{not json',
        line('/type/author', '/authors/OL9A', MODIFIED, {}),
        'a line that is not a dump record',
      ]),
      works: write('works.txt', [...WORKS, line('/type/edition', '/books/OL1M', MODIFIED, {})], true),
    };
    // The worker's own answer: every line after the resume point, parsed as here.
    const staged = workerStagedLines({ file: files.authors, gzip: false, skip: 1, staged: 'authors' });
    const lines: unknown[] = [];
    for await (const chunk of staged.chunks) lines.push(...chunk);
    assert.deepEqual(lines, [
      { ok: true, row: { key: 'OL2A', name: 'Bram Fenwick', modified: MODIFIED } },
      { ok: true, row: { key: 'OL3A', name: 'Cora Lindqvist', modified: MODIFIED } },
      { ok: false, reason: 'invalid_json' },
      { ok: false, reason: 'missing_name' },
      { ok: false, reason: 'malformed_row' },
    ]);
    assert.ok(staged.bytesRead() > 0);

    const stagedTables = async () => ({
      authors: await store().db.selectFrom('ol_authors').selectAll().orderBy('author_key').execute(),
      works: await store().db.selectFrom('ol_works').selectAll().orderBy('work_key').execute(),
    });
    const counts = (summary: DumpsSummary) =>
      summary.files.map(({ rowsRead, imported, skipped }) => ({ rowsRead, imported, skipped }));
    const here = await importOpenLibraryDumps(store(), files, { ...options, parseInWorker: false });
    const expected = { counts: counts(here), tables: await stagedTables(), catalog: await checksum(store()) };
    assert.deepEqual(expected.counts.slice(0, 2), [
      { rowsRead: 6, imported: 3, skipped: { invalid_json: 1, missing_name: 1, malformed_row: 1 } },
      { rowsRead: 3, imported: 2, skipped: { unexpected_type: 1 } },
    ]);
    await clear();
    // Two lines a transaction: the worker's chunks are taken across many commits.
    const there = await importOpenLibraryDumps(store(), files, {
      ...options,
      parseInWorker: true,
      batchSize: 2,
    });
    assert.deepEqual(counts(there), expected.counts);
    assert.deepEqual(await stagedTables(), expected.tables);
    assert.deepEqual(await checksum(store()), expected.catalog);
  });

  it('finds entries by any identifier through the index', async () => {
    await importOpenLibraryDumps(store(), dumps(), options);
    const find = (scheme: string, value: string) => findCatalogEntryByIdentifier(store().db, scheme, value);
    assert.equal(
      (await find('worldcat', '41333709'))?.isbn13,
      '9780306406157',
      'a WorldCat id is an OCLC number',
    );
    assert.equal((await find('oclc', '99999901'))?.isbn13, '9780306406157', 'the second OCLC number too');
    assert.equal((await find('goodreads', '4242'))?.isbn13, '9780306406157');
    assert.equal((await find('asin', 'B00TESTASN'))?.isbn13, '9780306406157');
    assert.equal((await find('lccn', '2004012345'))?.isbn13, '9780306406157');
    assert.equal((await find('librarything', '77'))?.isbn13, '9780306406157');
    assert.equal((await find('ol_edition', 'OL101M'))?.isbn13, '9781861972712');
    const salt = await find('goodreads', '5151');
    assert.equal(salt?.title, 'Salt and Iron');
    assert.equal(salt?.workKey, 'OL11W');
    assert.equal(await find('goodreads', '4243'), null);
    assert.equal(await find('ol_work', 'OL10W'), null, 'two editions claim the work: no guessing');
  });

  it('indexes entries imported before the index existed (the migration backfill)', async () => {
    await importOpenLibraryDumps(store(), dumps(), options);
    await store().db.deleteFrom('catalog_identifiers').execute();
    // Migrations see an untyped database.
    await backfillCatalogIdentifiers(store().db as unknown as Kysely<unknown>, context.dialect);
    const find = (scheme: string, value: string) => findCatalogEntryByIdentifier(store().db, scheme, value);
    assert.equal((await find('goodreads', '4242'))?.isbn13, '9780306406157');
    assert.equal((await find('oclc', '41333709'))?.isbn13, '9780306406157');
    assert.equal((await find('ol_edition', 'OL102M'))?.title, 'Salt and Iron');
    assert.equal((await find('isbn10', '0306406152'))?.isbn13, '9780306406157');
    const notes = await store()
      .db.selectFrom('catalog_identifiers')
      .select('scheme')
      .where('scheme', 'in', ['ol_authors', 'series', 'original_title'])
      .execute();
    assert.deepEqual(notes, [], 'notes kept in the JSON are not identifiers');
  });

  it('takes the three files in any order, plain or gzip, to the same catalog', async () => {
    await importOpenLibraryDumps(store(), dumps(), options);
    const ordered = await checksum(store());
    for (const table of [
      'catalog_identifiers',
      'catalog_entries',
      'import_runs',
      'ol_authors',
      'ol_works',
    ] as const) {
      await store().db.deleteFrom(table).execute();
    }
    const shuffled = await classifyDumps([
      write('e.txt', EDITIONS, true),
      write('a.txt', AUTHORS),
      write('w.txt', WORKS, true),
    ]);
    assert.match(shuffled.editions ?? '', /e\.txt\.gz$/);
    const summary = await importOpenLibraryDumps(store(), shuffled, options);
    assert.deepEqual(
      summary.files.map((file) => file.imported),
      [3, 2, 4],
    );
    const again = await checksum(store());
    assert.equal(again.rows, ordered.rows);
    assert.equal(again.identifiers, ordered.identifiers);
    assert.equal(again.hash, ordered.hash);
  });

  it('re-imports a later month: updates changed editions, skips unchanged ones, removes deleted ones', async () => {
    await importOpenLibraryDumps(store(), dumps(), options);
    const later = '2024-04-01T10:00:00.000000';
    const next = [
      // Changed: a newer last_modified and a new title.
      edition({
        id: 'OL100M',
        title: 'The Lantern Keeper (revised)',
        isbn13: ['9780306406157'],
        work: 'OL10W',
        authors: ['OL1A'],
        modified: later,
      }),
      // Unchanged by last_modified: the record is not rewritten, even though this line differs.
      edition({ id: 'OL101M', title: 'Not applied', isbn13: ['9781861972712'], work: 'OL10W' }),
      // OL102M is absent from the new dump; OL103M is deleted explicitly.
      line('/type/delete', '/books/OL103M', later, {}),
    ];
    const summary = await importOpenLibraryDumps(store(), dumps(next), options);
    assert.equal(summary.removed, 2);
    assert.equal((await entry(store(), 'isbn:9780306406157'))?.title, 'The Lantern Keeper (revised)');
    assert.equal((await entry(store(), 'isbn:9781861972712'))?.title, 'The Lantern Keeper');
    // A re-import keeps the search index live.
    const revised = await retrieveCandidates(store(), ['revised']);
    assert.deepEqual(
      revised.entries.map((e) => e.isbn13),
      ['9780306406157'],
    );
    assert.equal(await entry(store(), 'openlibrary:OL102M'), undefined);
    assert.equal(await entry(store(), 'isbn:9780141439518'), undefined);
    const left = await store()
      .db.selectFrom('catalog_entries')
      .select('entry_key')
      .orderBy('entry_key')
      .execute();
    assert.deepEqual(
      left.map((row) => row.entry_key),
      ['isbn:9780306406157', 'isbn:9781861972712'],
    );
    const orphans = await store()
      .db.selectFrom('catalog_identifiers')
      .select('value')
      .where('value', 'in', ['5151', 'OL103M'])
      .execute();
    assert.deepEqual(orphans, [], 'removed entries leave nothing in the identifier index');
    assert.equal(await findCatalogEntryByIdentifier(store().db, 'goodreads', '5151'), null);
  });

  it('keeps the identifiers of editions sharing an ISBN once each, on the one entry they share', async () => {
    const shared = ['9780306406157'];
    const summary = await importOpenLibraryDumps(
      store(),
      dumps([
        edition({
          id: 'OL300M',
          title: 'Twice',
          isbn13: shared,
          extra: { identifiers: { goodreads: ['1'] } },
        }),
        edition({ id: 'OL301M', title: 'Other', isbn13: ['9781861972712'] }),
        edition({
          id: 'OL302M',
          title: 'Twice',
          isbn13: shared,
          extra: { identifiers: { goodreads: ['2'] } },
        }),
      ]),
      options,
    );
    assert.equal(summary.files[2]?.imported, 3);
    assert.deepEqual(await indexedIdentifiers(store()), [
      'isbn:9780306406157 goodreads=1',
      'isbn:9780306406157 goodreads=2',
      'isbn:9780306406157 isbn10=0306406152',
      'isbn:9780306406157 isbn13=9780306406157',
      'isbn:9780306406157 ol_edition=OL300M',
      'isbn:9780306406157 ol_edition=OL302M',
      'isbn:9781861972712 isbn10=1861972717',
      'isbn:9781861972712 isbn13=9781861972712',
      'isbn:9781861972712 ol_edition=OL301M',
    ]);
  });

  it('brings the identifier index back whole when a provider filed identifiers while it was down', async () => {
    await deferCatalogIndexes(store().db, context.dialect);
    const answer = {
      entry_key: 'isbn:9780141439518',
      source: PROVIDER_SOURCE,
      isbn13: '9780141439518',
      title: 'Filed during the import',
      authors: '[]',
      identifiers: '{}',
      match_key: 'filed',
      popularity: 0,
      updated_at: MODIFIED,
    };
    // The same answer twice: while PostgreSQL's identifier key is down, nothing stops the repeat.
    const pairs = [['isbn13', '9780141439518'] as const, ['goodreads', '77'] as const];
    const id = await saveProviderEntry(store().db, answer, pairs);
    await saveProviderEntry(store().db, answer, pairs);
    assert.equal(await restoreCatalogIndexes(store()), true);
    const rows = await store()
      .db.selectFrom('catalog_identifiers')
      .select(['scheme', 'value', 'entry_id'])
      .orderBy('scheme')
      .execute();
    assert.deepEqual(
      rows.map((row) => `${row.scheme}=${row.value}@${Number(row.entry_id) === id}`),
      ['goodreads=77@true', 'isbn13=9780141439518@true'],
    );
    // The key is back: a third filing adds nothing.
    await saveProviderEntry(store().db, answer, pairs);
    const after = await store().db.selectFrom('catalog_identifiers').select('value').execute();
    assert.equal(after.length, 2);
    assert.equal(await catalogIndexesDeferred(store().db), false);
  });

  it('tells each step of the work after the last row: the deferred indexes of a first import, then the statistics', async () => {
    const events: FinishingEvent[] = [];
    await importOpenLibraryDumps(store(), dumps(), {
      ...options,
      onFinishing: (event) => events.push(event),
    });
    const [indexes] = events;
    assert.ok(indexes?.kind === 'phase');
    assert.match(indexes.title, /indexes this first import deferred/);
    const steps = events.slice(1, 1 + indexes.steps);
    assert.deepEqual(
      steps.map((step) => step.kind === 'step' && step.done),
      steps.map((_, i) => i + 1),
    );
    const names = steps.map((step) => (step.kind === 'step' ? step.name : ''));
    assert.ok(names.includes('identifier index'), names.join(', '));
    assert.ok(names.filter((name) => name.startsWith('index ')).length >= 3, names.join(', '));
    assert.deepEqual(
      events.slice(1 + indexes.steps).map((event) => (event.kind === 'phase' ? event.title : event.name)),
      ['Refreshing the search statistics', 'search statistics'],
    );
    // A later month's import has no indexes down: only the statistics.
    const later: FinishingEvent[] = [];
    await importOpenLibraryDumps(store(), dumps(), {
      ...options,
      restart: true,
      onFinishing: (event) => later.push(event),
    });
    assert.deepEqual(
      later.map((event) => (event.kind === 'phase' ? event.title : event.name)),
      ['Refreshing the search statistics', 'search statistics'],
    );
  });

  it('names every index it builds again, once each, and counts its steps before the first', async () => {
    const before = await catalogIndexNames(store());
    await deferCatalogIndexes(store().db, context.dialect);
    const down = await catalogIndexNames(store());
    const told: string[] = [];
    let planned = 0;
    await restoreCatalogIndexes(store(), {
      begin: (steps) => {
        planned = steps;
      },
      step: (name) => told.push(name),
    });
    assert.equal(told.length, planned);
    assert.deepEqual(
      told
        .filter((name) => name.startsWith('index '))
        .map((name) => name.slice('index '.length))
        .sort(),
      // PostgreSQL's identifier key, down as well, comes back within the identifier index's step.
      before.filter((name) => !down.includes(name) && name !== 'catalog_identifiers_pk'),
    );
    assert.equal(told.filter((name) => name === 'identifier index').length, 1);
  });

  it('finishes a rebuild of the indexes that a kill interrupted, keeping the ones already built', async () => {
    const before = await catalogIndexNames(store());
    await deferCatalogIndexes(store().db, context.dialect);
    const down = await catalogIndexNames(store());
    assert.ok(down.length < before.length, 'a first import takes the indexes down');
    // Steps committed before the kill (each build commits on its own): an index and, on SQLite, a
    // search trigger.
    const marker = await store()
      .db.selectFrom('settings')
      .select('value')
      .where('key', '=', DEFERRED_INDEXES_MARKER)
      .executeTakeFirstOrThrow();
    const { create } = JSON.parse(marker.value) as { create: string[] };
    const built = create.find((statement) => /^create index/i.test(statement));
    assert.ok(built);
    await sql.raw(built).execute(store().db);
    if (context.dialect === 'sqlite') {
      const trigger = create.find((statement) => /^create trigger/i.test(statement));
      assert.ok(trigger);
      await sql.raw(trigger).execute(store().db);
    }
    assert.equal(await restoreCatalogIndexes(store()), true);
    assert.deepEqual(await catalogIndexNames(store()), before);
    assert.equal(await catalogIndexesDeferred(store().db), false);
    if (context.dialect === 'sqlite') {
      // The restore sorts with helper threads; the connection, shared with everything else, gets none back.
      const { rows } = await sql<{ threads: number }>`pragma threads`.execute(store().db);
      assert.equal(rows[0]?.threads, 0);
    }
    assert.equal(await restoreCatalogIndexes(store()), false, 'nothing left to restore');
  });

  it('writes one catalog whether editions are copied straight in, looked up ahead or all merged', async () => {
    const big = syntheticDumps(6000, 7);
    // All merged: a catalog holding an entry already gets no first import, and batches of 500 are
    // joined one at a time.
    await store()
      .db.insertInto('catalog_entries')
      .values({
        entry_key: 'csv:placeholder',
        source: 'csv',
        title: 'Placeholder',
        authors: '[]',
        identifiers: '{}',
        popularity: 0,
        updated_at: MODIFIED,
      })
      .execute();
    await importOpenLibraryDumps(store(), big, { ...options, batchSize: 500, parseInWorker: false });
    assert.equal(await catalogIndexesDeferred(store().db), false);
    await store().db.deleteFrom('catalog_entries').where('entry_key', '=', 'csv:placeholder').execute();
    const expected = await checksum(store());
    assert.ok(expected.rows > 5000 && expected.rows < 6000, `${expected.rows} entries: some share an ISBN`);
    await clear();
    // A first import in one batch: six joins, each looked up while the one before is written (on
    // PostgreSQL), and statements of 5,000 whose new keys are copied straight in.
    await importOpenLibraryDumps(store(), big, { ...options, parseInWorker: false });
    assert.deepEqual(await checksum(store()), expected);
  });

  it('resumes after kill -9 to exactly the catalog of an uninterrupted import', async () => {
    const big = syntheticDumps(12_000);
    await importOpenLibraryDumps(store(), big, { ...options, batchSize: 500, parseInWorker: false });
    const expected = await checksum(store());
    assert.ok(expected.rows > 9000);

    const other = await createTestDatabase(context.dialect);
    const observer = openStore(other.url);
    try {
      const args = [
        'import-openlibrary',
        '--editions',
        big.editions ?? '',
        '--works',
        big.works ?? '',
        '--authors',
        big.authors ?? '',
        '--batch-size',
        '500',
      ];
      const child = cli(args, other.url);
      await killWhenEditionsStarted(child, observer);
      const partial = await observer.db
        .selectFrom('catalog_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.ok(Number(partial.n) < expected.rows, 'killed part-way');
      const rerun = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
        env: { ...process.env, DATABASE_URL: other.url },
        encoding: 'utf8',
      });
      assert.equal(rerun.status, 0, rerun.stderr);
      assert.match(rerun.stderr, /Resuming at row/);
      // The finished rows are followed by the deferred indexes and the statistics, a line a step.
      assert.match(rerun.stderr, /^Building the indexes this first import deferred \(\d+ steps\)$/m);
      assert.match(rerun.stderr, /^ {2}identifier index: \d+\.\d s \(\d+ of \d+\)$/m);
      assert.match(rerun.stderr, /^ {2}search statistics: \d+\.\d s \(1 of 1\)$/m);
      const resumed = await checksum(observer);
      assert.equal(resumed.rows, expected.rows);
      assert.equal(resumed.identifiers, expected.identifiers);
      assert.equal(resumed.hash, expected.hash);
      assert.equal(await catalogIndexesDeferred(observer.db), false);
      assert.ok((await retrieveCandidates(observer, ['edition', '77'])).entries.length > 0);
    } finally {
      await observer.close();
      await other.drop();
    }
  });
});

function cli(args: string[], databaseUrl: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'ignore',
  });
}

/** SIGKILLs the import once some editions batches committed, as a crash would stop it. */
async function killWhenEditionsStarted(child: ChildProcess, observer: Store): Promise<void> {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      assert.ok(Date.now() < deadline, 'the import never got going');
      assert.equal(child.exitCode, null, 'the import finished before it could be killed');
      const count = await observer.db
        .selectFrom('catalog_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst()
        .catch(() => undefined);
      if (Number(count?.n ?? 0) > 0) break;
      await new Promise((done) => setTimeout(done, 5));
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** A few thousand invented editions (some without ISBN, a few per work) in the dump format. */
/**
 * `n` editions of `n / 3` works by `n / 10` authors; every `sharedIsbnEvery`-th edition with an ISBN
 * repeats the ISBN of the edition 2,500 before it, as Open Library's duplicate records do.
 */
function syntheticDumps(n: number, sharedIsbnEvery = 0): DumpFiles {
  const authors: string[] = [];
  const works: string[] = [];
  const editions: string[] = [];
  for (let a = 1; a <= n / 10; a++) authors.push(author(`OL${a}A`, `Author ${a} Surname${a % 97}`));
  for (let w = 1; w <= n / 3; w++)
    works.push(work(`OL${w}W`, `Work title ${w}`, [`OL${(w % (n / 10)) + 1}A`], String(1900 + (w % 120))));
  for (let e = 1; e <= n; e++) {
    const shared = sharedIsbnEvery > 0 && e > 2500 && e % sharedIsbnEvery === 0;
    const first12 = `978${String(shared ? e - 2500 : e).padStart(9, '0')}`;
    let sum = 0;
    for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(first12[i]);
    const isbn = first12 + String((10 - (sum % 10)) % 10);
    editions.push(
      edition({
        id: `OL${e}M`,
        title: `Edition ${e}`,
        ...(e % 4 === 0 ? {} : { isbn13: [isbn] }),
        work: `OL${(e % (n / 3)) + 1}W`,
        ...(e % 5 === 0 ? {} : { authors: [`OL${(e % (n / 10)) + 1}A`] }),
        extra: { identifiers: { goodreads: [String(e)] } },
      }),
    );
  }
  return {
    authors: write('synthetic-authors.txt', authors),
    works: write('synthetic-works.txt', works, true),
    editions: write('synthetic-editions.txt', editions),
  };
}

/** The names of the catalog tables' indexes, sorted. */
async function catalogIndexNames(store: Store): Promise<string[]> {
  const query =
    store.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index'
          and tbl_name in ('catalog_entries', 'catalog_identifiers') and sql is not null`
      : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()
          and tablename in ('catalog_entries', 'catalog_identifiers')`;
  const result = await query.execute(store.db);
  return result.rows.map((row) => row.name).sort();
}
