/**
 * Search latency: `npx tsx bench/search/latency.ts [--sizes 10k,1m] [--dialects sqlite,postgres] [--queries N]`.
 * 10k: the real goodbooks-10k catalog, imported through `importCatalogFile`. 1m: the same 10k plus
 * 990,000 synthetic entries whose titles and authors reuse the real vocabulary, so words are shared
 * as in a real catalog. Queries: real titles, title+author, surname+title, typos and author names.
 * Reports median and p95 of `SearchService.search` (local catalog only, no providers).
 */

import '../lib/help.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { postgresReachable, scratchDatabase } from '../../scripts/eval/databases.js';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { LocalCatalogProvider } from '../../src/catalog/local.js';
import { matchKey } from '../../src/domain/text.js';
import { BookCreator } from '../../src/services/book-creator.js';
import { SearchService } from '../../src/services/search/service.js';
import type { Dialect, Store } from '../../src/store/db.js';

const CSV = resolve(import.meta.dirname, '../../../shared/data/goodbooks-10k/books_isbn_derived.csv');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

interface Row {
  title: string;
  authors: string;
}

/** A deterministic pseudo-random stream, so every run searches the same catalog. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function typo(word: string, next: () => number): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(next() * (word.length - 2));
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

function benchQueries(rows: Row[], count: number): string[] {
  const next = random(42);
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const row = rows[Math.floor(next() * Math.min(rows.length, 3000))]!;
    const title = row.title.replace(/\s*\([^)]*#[^)]*\)\s*$/, '');
    const author = row.authors.split(',')[0]!.trim();
    const surname = author.split(' ').at(-1) ?? '';
    const forms = [
      title,
      `${title} by ${author}`,
      `${surname} ${title}`,
      title
        .split(' ')
        .map((w) => typo(w, next))
        .join(' '),
      author,
    ];
    out.push(forms[i % forms.length]!.toLowerCase());
  }
  return out;
}

async function loadSynthetic(store: Store, rows: Row[], total: number): Promise<void> {
  const next = random(7);
  const words = [
    ...new Set(rows.flatMap((r) => r.title.toLowerCase().split(/[^a-z']+/)).filter((w) => w.length > 2)),
  ];
  const authors = [...new Set(rows.flatMap((r) => r.authors.split(',').map((a) => a.trim())))];
  const now = new Date().toISOString();
  const batch = 1000; // 18 columns: under SQLite's 32,766 bound variables per statement
  for (let done = 0; done < total; done += batch) {
    const values = Array.from({ length: Math.min(batch, total - done) }, (_, i) => {
      const n = 1 + Math.floor(next() * 4);
      const title = Array.from({ length: n }, () => words[Math.floor(next() ** 1.5 * words.length)]!).join(
        ' ',
      );
      const author = [authors[Math.floor(next() * authors.length)]!];
      return {
        entry_key: `synthetic:${done + i}`,
        source: 'synthetic',
        isbn13: null,
        isbn10: null,
        title: title.charAt(0).toUpperCase() + title.slice(1),
        subtitle: null,
        authors: JSON.stringify(author),
        published_date: String(1900 + Math.floor(next() * 124)),
        publisher: null,
        cover_url: null,
        language: 'en',
        format: next() < 0.8 ? 'paperback' : 'hardcover',
        pages: null,
        description: null,
        identifiers: '{}',
        match_key: matchKey(title, author),
        popularity: Math.floor(next() ** 4 * 100_000),
        updated_at: now,
      };
    });
    await store.db.insertInto('catalog_entries').values(values).execute();
    if ((done / batch) % 50 === 0)
      process.stdout.write(`\r  synthetic ${done.toLocaleString()} / ${total.toLocaleString()}`);
  }
  process.stdout.write('\n');
}

async function measure(store: Store, queries: string[]): Promise<{ median: number; p95: number }> {
  const local = new LocalCatalogProvider(store.db);
  const search = new SearchService(store, local, new BookCreator(store, local, null), null);
  for (const q of queries.slice(0, 20)) await search.search(q); // warm caches and statements
  const times: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    await search.search(q);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]! };
}

async function run(dialect: Dialect, size: '10k' | '1m', rows: Row[], queries: string[]): Promise<void> {
  const scratch = await scratchDatabase(dialect, `bench${size}`);
  try {
    const started = performance.now();
    await importCatalogFile(scratch.store, CSV, {
      format: 'csv',
      coversBaseUrl: 'https://covers.openlibrary.org',
    });
    if (size === '1m') await loadSynthetic(scratch.store, rows, 1_000_000 - rows.length);
    // Fresh statistics, as autovacuum would gather them on a live database.
    if (dialect === 'postgres') await sql`analyze`.execute(scratch.store.db);
    const loadS = ((performance.now() - started) / 1000).toFixed(0);
    const { median, p95 } = await measure(scratch.store, queries);
    console.log(
      `${dialect.padEnd(8)} ${size.padEnd(3)} median ${median.toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  (${queries.length} queries; load ${loadS} s)`,
    );
  } finally {
    await scratch.drop();
  }
}

async function main(): Promise<void> {
  const rows = parse(readFileSync(CSV), { columns: true }) as Row[];
  const queries = benchQueries(rows, Number(arg('queries', '300')));
  const sizes = arg('sizes', '10k,1m').split(',') as Array<'10k' | '1m'>;
  const wanted = arg('dialects', 'sqlite,postgres').split(',') as Dialect[];
  const dialects = (await postgresReachable()) ? wanted : wanted.filter((d) => d === 'sqlite');
  for (const size of sizes) for (const dialect of dialects) await run(dialect, size, rows, queries);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
