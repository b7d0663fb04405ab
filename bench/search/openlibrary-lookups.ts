/**
 * Lookups at catalog scale: `npx tsx bench/search/openlibrary-lookups.ts --database-url URL [--samples N]`.
 * Against a catalog imported beforehand (bench/import/openlibrary.ts --database-url URL keeps it), a
 * `booklink serve` child process answers: `/isbn/{isbn}` of catalog-only editions (each first visit
 * creates the book from the catalog), `/search?q=` with titles, author names and misspellings of them;
 * in this process, identifier lookups through the index (Goodreads, OCLC, LCCN, LibraryThing, Open
 * Library edition). With `--queries FILE` (a search-dev style TSV whose first column is the query, e.g.
 * ../shared/data/search-dev/queries.tsv, read in place), those queries are timed through `/search` as well.
 * Reports median and p95 of each and the server's peak RSS (VmHWM).
 * Only ISBNs without a book are timed, and the books and works the run creates are deleted at its end.
 */
import '../lib/help.js';
import { readFileSync } from 'node:fs';
import { findCatalogEntryByIdentifier } from '../../src/services/resolve/catalog-identifiers.js';
import { openStore } from '../../src/store/db.js';
import { BROWSER_UA, machineFacts, option, startApp } from '../lib/harness.js';

const at = process.argv.indexOf('--database-url');
const databaseUrl = at >= 0 ? process.argv[at + 1] : undefined;
if (!databaseUrl) throw new Error('--database-url URL (an imported catalog) is required');
const samples = option('samples', 200);
const queriesAt = process.argv.indexOf('--queries');
const queryFile = queriesAt >= 0 ? process.argv[queriesAt + 1] : undefined;

/** The first column of a TSV with a header line: the queries readers typed. */
function readQueries(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t')[0]?.trim() ?? '')
    .filter((query) => query !== '');
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${pick(0.5).toFixed(2)} ms, p95 ${pick(0.95).toFixed(2)} ms (${values.length})`;
}

/** One letter swapped with the next: the misspellings readers make. */
function misspell(text: string, seed: number): string {
  const words = text.split(' ');
  const i = seed % words.length;
  const word = words[i] ?? '';
  if (word.length < 4) return text;
  const j = 1 + (seed % (word.length - 2));
  words[i] = word.slice(0, j) + word[j + 1] + word[j] + word.slice(j + 2);
  return words.join(' ');
}

const store = openStore(databaseUrl);
const bounds = await store.db
  .selectFrom('catalog_entries')
  .select((eb) => [eb.fn.min('id').as('low'), eb.fn.max('id').as('high')])
  .executeTakeFirstOrThrow();
const low = Number(bounds.low);
const high = Number(bounds.high);
console.log(`catalog ids ${low}..${high}; ${machineFacts()}`);

/** Entries at spread-out ids: random rows without a scan of the table. */
async function sampleEntries(n: number) {
  const rows = [];
  for (let i = 0; rows.length < n && i < n * 5; i++) {
    const id = low + Math.floor((((i * 2654435761) % 1_000_003) / 1_000_003) * (high - low + 1));
    const row = await store.db
      .selectFrom('catalog_entries')
      .selectAll()
      .where('id', '>=', id)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (row) rows.push(row);
  }
  return rows;
}

const entries = await sampleEntries(samples);
const idRows = [];
for (const entry of entries) {
  const ids = await store.db
    .selectFrom('catalog_identifiers')
    .select(['scheme', 'value'])
    .where('entry_id', '=', entry.id)
    .execute();
  idRows.push(...ids.filter((row) => !row.scheme.startsWith('isbn')));
}

const lookups: number[] = [];
for (const { scheme, value } of idRows) {
  const started = performance.now();
  await findCatalogEntryByIdentifier(store.db, scheme, value);
  lookups.push(performance.now() - started);
}
console.log(`identifier lookup (index, in process): ${stats(lookups)}`);

/** The highest id in `table`, so what this run creates can be told apart and removed at its end. */
async function maxId(table: 'books' | 'works'): Promise<number> {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirstOrThrow();
  return Number(row.id ?? 0);
}

// Only ISBNs without a book are timed: a visit to an existing book is a redirect, not a creation.
const withIsbn = entries.flatMap((row) => (row.isbn13 ? [{ ...row, isbn13: row.isbn13 }] : []));
const booksMade =
  withIsbn.length === 0
    ? []
    : await store.db
        .selectFrom('books')
        .select('isbn13')
        .where(
          'isbn13',
          'in',
          withIsbn.map((row) => row.isbn13),
        )
        .execute();
const existing = new Set(booksMade.map((row) => row.isbn13));
const before = { book: await maxId('books'), work: await maxId('works') };
const server = await startApp(databaseUrl);
try {
  const isbnTimes: number[] = [];
  for (const entry of withIsbn.filter((row) => !existing.has(row.isbn13))) {
    const started = performance.now();
    const response = await fetch(`${server.url}/isbn/${entry.isbn13}`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA },
    });
    await response.arrayBuffer();
    isbnTimes.push(performance.now() - started);
  }
  const skipped = existing.size > 0 ? `; ${existing.size} not timed, their books made before this run` : '';
  console.log(`/isbn/ first visit (creates the book from the catalog): ${stats(isbnTimes)}${skipped}`);

  const queries = entries.flatMap((entry, i) => {
    const authors = JSON.parse(entry.authors) as string[];
    const title = entry.title.split(' ').slice(0, 4).join(' ');
    return [title, misspell(title, i), authors[0] ? `${title.split(' ')[0]} ${authors[0]}` : title];
  });
  for (const q of queries.slice(0, 20))
    await (await fetch(`${server.url}/search?q=${encodeURIComponent(q)}`)).arrayBuffer();
  const timeSearches = async (list: readonly string[]) => {
    const times: number[] = [];
    for (const q of list) {
      const started = performance.now();
      await (
        await fetch(`${server.url}/search?q=${encodeURIComponent(q)}`, {
          headers: { 'user-agent': BROWSER_UA },
        })
      ).arrayBuffer();
      times.push(performance.now() - started);
    }
    return times;
  };
  console.log(`/search (titles, misspellings, title + author): ${stats(await timeSearches(queries))}`);
  if (queryFile) {
    console.log(`/search (${queryFile}): ${stats(await timeSearches(readQueries(queryFile)))}`);
  }
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  console.log(`server peak RSS: ${/VmHWM:\s+(\d+ kB)/.exec(status)?.[1] ?? 'n/a'}`);
} finally {
  await server.stop();
  // The books and works this run made go again (their identifiers and links with them), so the next
  // run times first visits too.
  await store.db.deleteFrom('books').where('id', '>', before.book).execute();
  await store.db.deleteFrom('works').where('id', '>', before.work).execute();
  await store.close();
}
