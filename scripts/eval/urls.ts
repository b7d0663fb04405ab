/**
 * The URL half of the evaluation: `npx tsx scripts/eval/urls.ts [--verbose]`. Loads the labelled
 * catalogs test/fixtures/eval/url-catalog*.jsonl (editions with the identifiers retailer URLs carry,
 * some already saved as books; `provider_only` ones are not imported but served by local fake
 * providers answering in the real APIs' formats), resolves every row of urls*.jsonl as a human would
 * (books may be created), and prints accuracy per store, per URL class for local and provider-only
 * books, and confident answers to a wrong book. Offline: the providers are the local fake; no
 * short-link expansion. Exits non-zero on any wrong confident answer.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalCatalogProvider } from '../../src/catalog/local.js';
import { createProviderChain } from '../../src/catalog/providers/index.js';
import { loadConfig } from '../../src/config.js';
import { parseRetailerUrl } from '../../src/domain/retailer-urls/index.js';
import { VOLUME_WORDS } from '../../src/domain/series.js';
import { BookCreator } from '../../src/services/book-creator.js';
import { createResolver } from '../../src/services/resolve/wiring.js';
import type { Resolver, ResolveVia } from '../../src/services/resolve.js';
import { SearchService } from '../../src/services/search/service.js';
import { bookIdentifiers } from '../../src/store/books.js';
import type { Dialect, Store } from '../../src/store/db.js';
import { type FakeProviders, startFakeProviders } from '../../test/support/fake-providers.js';
import { postgresReachable, scratchDatabase } from './databases.js';
import { readJsonl } from './fixtures.js';
import {
  expectedEntries,
  fakeBookOf,
  loadUrlCatalog,
  matchesEntry,
  type UrlCatalog,
  type UrlRow,
} from './url-catalog.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'eval');

type Verdict = 'right' | 'right_not_found' | 'missed' | 'wrong';

interface Result {
  row: UrlRow;
  /** What the URL carries (isbn, store id, title words, not a book page) and where its book lives. */
  urlClass: string;
  home: 'local' | 'provider-only' | 'no book';
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
  const labels = {
    urlClass: urlClassOf(row.url),
    home:
      expected.length === 0
        ? ('no book' as const)
        : expected.every((entry) => entry.provider_only)
          ? ('provider-only' as const)
          : ('local' as const),
  };
  const outcome = await resolver.resolveUrl(row.url, true);
  if (outcome.status === 'not_found') {
    const verdict = expected.length === 0 ? 'right_not_found' : 'missed';
    const answer = `not_found/${outcome.reason} (${outcome.searchText ?? 'home'})`;
    return { row, ...labels, verdict, via: null, answer };
  }
  const ids = await bookIdentifiers(store.db, outcome.book.id);
  const right = expected.some((entry) => matchesEntry(entry, outcome.book.isbn13, ids));
  const answer = `${outcome.book.title} ${outcome.book.isbn13 ?? JSON.stringify(ids)}`;
  return { row, ...labels, verdict: right ? 'right' : 'wrong', via: outcome.via, answer };
}

function urlClassOf(url: string): string {
  const parsed = parseRetailerUrl(url);
  if (!parsed) return 'not a URL';
  if (parsed.needsExpansion) return 'short link';
  if (parsed.kind === 'not_book') return 'not a book page';
  if (parsed.isbn) return parsed.store === 'unknown' ? 'isbn (unknown shop)' : 'isbn';
  const schemes = Object.keys(parsed.identifiers);
  if (schemes.some((scheme) => PROVIDER_SCHEMES.has(scheme))) return 'catalogue id';
  if (parsed.titleWords) {
    if (SERIES_WORDS.test(parsed.titleWords)) return 'title words (series)';
    if (parsed.store === 'unknown') return 'title words (unknown shop)';
    return schemes.length > 0 ? 'title words (+shop id)' : 'title words';
  }
  return schemes.length > 0 ? 'shop id only' : 'nothing to read';
}

/** A slug that names a series volume ("…-the-hunger-games-book-2", "…-Book-ebook", "…-hunger-games-3_…"). */
const SERIES_WORDS = new RegExp(
  `(?:^|\\s)(?:${VOLUME_WORDS.join('|')}|vol)(?:\\s+\\d{1,3})?(?:\\s|$)|\\s\\d{1,2}(?:\\s|$)`,
  'i',
);

/** Ids a catalogue or provider can name an edition by (the rest only mean something to one shop). */
const PROVIDER_SCHEMES = new Set([
  'ol_edition',
  'ol_work',
  'worldcat',
  'goodreads',
  'goodreads_work',
  'librarything',
  'google_volume',
  'apple_books',
  'apple_audiobook',
]);

/** Right answers per URL class, for books in the local catalog and books only providers know. */
function reportClasses(results: readonly Result[]): void {
  const ok = (r: Result) => r.verdict === 'right' || r.verdict === 'right_not_found';
  const classes = [...new Set(results.map((r) => r.urlClass))].sort();
  const cell = (rows: readonly Result[]) =>
    rows.length === 0
      ? '      -'
      : `${String(rows.filter(ok).length).padStart(3)}/${String(rows.length).padEnd(3)}`;
  console.log(`  per URL class              local    provider-only  no book (rightly not found)`);
  for (const urlClass of classes) {
    const rows = results.filter((r) => r.urlClass === urlClass);
    const by = (home: Result['home']) => rows.filter((r) => r.home === home);
    console.log(
      `  ${urlClass.padEnd(26)} ${cell(by('local'))}  ${cell(by('provider-only'))}        ${cell(by('no book'))}`,
    );
  }
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
  reportClasses(results);
  for (const r of results) {
    if (r.verdict === 'wrong' || (verbose && r.verdict === 'missed')) {
      console.log(`  ${r.verdict.toUpperCase()} [${r.row.store}] ${r.row.url} → ${r.answer}`);
    }
  }
  return count('wrong');
}

const readAll = (names: readonly string[]) => names.flatMap((name) => readJsonl<never>(join(FIXTURES, name)));

/** The resolver as production wires it, with the providers pointed at the local fake. */
function evalResolver(
  store: Store,
  fake: FakeProviders,
): { resolver: Resolver; creator: BookCreator; close(): Promise<void> } {
  const config = loadConfig({
    ...fake.env,
    DATABASE_URL: 'sqlite::memory:',
    PROVIDERS: 'openlibrary,googlebooks,itunes',
    PROVIDER_TIMEOUT_MS: '2000',
  });
  const local = new LocalCatalogProvider(store.db);
  const providers = createProviderChain(config, store.db);
  const creator = new BookCreator(store, local, providers.chain);
  const search = new SearchService(store, local, creator, providers.chain, { remoteTimeoutMs: 1500 });
  const resolver = createResolver({
    db: store.db,
    creator,
    search,
    providers: providers.chain.providers,
    providerTitles: providers.chain,
    timeoutMs: config.providerTimeoutMs,
    shortLinkHosts: [],
  });
  return {
    resolver,
    creator,
    close: async () => {
      await resolver.close();
      await providers.client.close();
    },
  };
}

/** Runs the URL evaluation on SQLite (and PostgreSQL when reachable); true when nothing was wrong. */
export async function runUrlEvaluation(options: { verbose: boolean }): Promise<boolean> {
  const rows = readAll(['urls.jsonl', 'urls-providers.jsonl']) as UrlRow[];
  const catalog = readAll(['url-catalog.jsonl', 'url-catalog-providers.jsonl']) as Record<string, unknown>[];
  const dialects: Dialect[] = (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];
  console.log(`URL evaluation: ${rows.length} URLs over ${new Set(rows.map((r) => r.store)).size} stores`);
  let wrong = 0;
  for (const dialect of dialects) {
    const scratch = await scratchDatabase(dialect, 'urls');
    const fake = await startFakeProviders();
    const wired = evalResolver(scratch.store, fake);
    try {
      const loaded = await loadUrlCatalog(scratch.store, wired.creator, catalog);
      for (const entry of loaded.entries) {
        const book = fakeBookOf(entry);
        if (book) fake.addBook(book);
      }
      const results: Result[] = [];
      for (const row of rows) results.push(await evaluateRow(scratch.store, wired.resolver, loaded, row));
      wrong += report(dialect, results, options.verbose);
    } finally {
      await wired.close();
      await fake.close();
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
