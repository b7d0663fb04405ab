/**
 * The URL half of the evaluation: `npx tsx scripts/eval/urls.ts [--verbose]`. Loads the labelled
 * catalog test/fixtures/eval/url-catalog.jsonl (editions with the identifiers retailer URLs carry,
 * some already saved as books), resolves every row of urls.jsonl as a human would (books may be
 * created), and prints accuracy per store and overall plus confident answers to a wrong book.
 * Offline: no provider and no short-link expansion. Exits non-zero on any wrong confident answer.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalCatalogProvider } from '../../src/catalog/local.js';
import { BookCreator } from '../../src/services/book-creator.js';
import { Resolver, type ResolveVia } from '../../src/services/resolve.js';
import { SearchService } from '../../src/services/search.js';
import { bookIdentifiers } from '../../src/store/books.js';
import type { Dialect, Store } from '../../src/store/db.js';
import { postgresReachable, scratchDatabase } from './databases.js';
import { readJsonl } from './fixtures.js';
import {
  expectedEntries,
  loadUrlCatalog,
  matchesEntry,
  type UrlCatalog,
  type UrlRow,
} from './url-catalog.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'eval');

type Verdict = 'right' | 'right_not_found' | 'missed' | 'wrong';

interface Result {
  row: UrlRow;
  verdict: Verdict;
  via: ResolveVia | null;
  answer: string;
}

async function evaluateRow(
  store: Store,
  resolver: Resolver,
  catalog: UrlCatalog,
  row: UrlRow,
): Promise<Result> {
  const expected = expectedEntries(catalog, row);
  const outcome = await resolver.resolveUrl(row.url, true);
  if (outcome.status === 'not_found') {
    const verdict = expected.length === 0 ? 'right_not_found' : 'missed';
    return { row, verdict, via: null, answer: `not_found (${outcome.searchText ?? 'home'})` };
  }
  const ids = await bookIdentifiers(store.db, outcome.book.id);
  const right = expected.some((entry) => matchesEntry(entry, outcome.book.isbn13, ids));
  const answer = `${outcome.book.title} ${outcome.book.isbn13 ?? JSON.stringify(ids)}`;
  return { row, verdict: right ? 'right' : 'wrong', via: outcome.via, answer };
}

const pct = (part: number, total: number) => `${((100 * part) / Math.max(total, 1)).toFixed(1)}%`;

function report(dialect: Dialect, results: readonly Result[], verbose: boolean): number {
  const stores = new Map<string, Result[]>();
  for (const result of results) {
    const key = result.row.store ?? '(not a URL)';
    stores.set(key, [...(stores.get(key) ?? []), result]);
  }
  const ok = (rows: readonly Result[]) =>
    rows.filter((r) => r.verdict === 'right' || r.verdict === 'right_not_found');
  const lines = [...stores.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([store, rows]) =>
        `  ${store.padEnd(18)} ${String(rows.length).padStart(3)}  ${pct(ok(rows).length, rows.length)}`,
    );
  console.log(`\nURL resolve on ${dialect}: accuracy per store (rows, right)\n${lines.join('\n')}`);
  const count = (verdict: Verdict) => results.filter((r) => r.verdict === verdict).length;
  const vias = new Map<string, number>();
  for (const r of results) if (r.via) vias.set(r.via, (vias.get(r.via) ?? 0) + 1);
  console.log(
    `  overall: ${ok(results).length}/${results.length} right (${pct(ok(results).length, results.length)}): ` +
      `${count('right')} found the right book, ${count('right_not_found')} rightly not found, ` +
      `${count('missed')} knowable but missed, ${count('wrong')} confident answers to a wrong book`,
  );
  const knowable = results.filter((r) => r.verdict === 'right' || r.verdict === 'missed');
  console.log(
    `  knowable URLs resolved: ${count('right')}/${knowable.length} (${pct(count('right'), knowable.length)})`,
  );
  console.log(`  found via: ${[...vias.entries()].map(([via, n]) => `${via} ${n}`).join(', ')}`);
  for (const r of results) {
    if (r.verdict === 'wrong' || (verbose && r.verdict === 'missed')) {
      console.log(`  ${r.verdict.toUpperCase()} [${r.row.store}] ${r.row.url} → ${r.answer}`);
    }
  }
  return count('wrong');
}

/** Runs the URL evaluation on SQLite (and PostgreSQL when reachable); true when nothing was wrong. */
export async function runUrlEvaluation(options: { verbose: boolean }): Promise<boolean> {
  const rows = readJsonl<UrlRow>(join(FIXTURES, 'urls.jsonl'));
  const catalog = readJsonl<Record<string, unknown>>(join(FIXTURES, 'url-catalog.jsonl'));
  const dialects: Dialect[] = (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];
  console.log(`URL evaluation: ${rows.length} URLs over ${new Set(rows.map((r) => r.store)).size} stores`);
  let wrong = 0;
  for (const dialect of dialects) {
    const scratch = await scratchDatabase(dialect, 'urls');
    try {
      const local = new LocalCatalogProvider(scratch.store.db);
      const creator = new BookCreator(scratch.store.db, local, null);
      const loaded = await loadUrlCatalog(scratch.store, creator, catalog);
      const resolver = new Resolver({
        db: scratch.store.db,
        creator,
        search: new SearchService(scratch.store, local, creator, null),
        shortLinks: null,
        shortLinkHosts: [],
        editionLookups: [],
        timeoutMs: 1000,
      });
      const results: Result[] = [];
      for (const row of rows) results.push(await evaluateRow(scratch.store, resolver, loaded, row));
      wrong += report(dialect, results, options.verbose);
    } finally {
      await scratch.drop();
    }
  }
  console.log(`\nConfident URL answers to a wrong book (all dialects): ${wrong}`);
  return wrong === 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runUrlEvaluation({ verbose: process.argv.includes('--verbose') })
    .then((ok) => process.exit(ok ? 0 : 1))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
