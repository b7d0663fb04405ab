import type { BookRecord } from '../../src/catalog/types.js';
import { loadConfig } from '../../src/config.js';
import { createServices } from '../../src/services/container.js';
import type { Dialect, Store } from '../../src/store/db.js';
import { startCatalogProviders } from '../../test/support/fake-providers.js';
import { postgresReachable, scratchDatabase } from './databases.js';
import { loadCatalog } from './fixtures.js';
import { type Goodbooks, type GoodbooksQuery, loadGoodbooks, sharedDataDir } from './goodbooks.js';
import { miniSearchEngine } from './minisearch.js';
import type { Answer, Engine } from './search.js';

/**
 * The work a result is, whichever source answered: catalog entries and provider volumes by ISBN,
 * Open Library works by their key (`OL<book_id>W`), Google volumes by id (`gb<book_id>`).
 */
function workOf(books: Goodbooks): (record: BookRecord) => string | null {
  const byIsbn = new Map(books.all.flatMap((e) => (e.isbn13 ? [[e.isbn13, e.work] as const] : [])));
  return (record) => {
    if (record.isbn13 && byIsbn.has(record.isbn13)) return byIsbn.get(record.isbn13) ?? null;
    const olWork = /^OL(\d+)W$/.exec(record.identifiers.ol_work ?? '')?.[1];
    const volume = /^gb(\d+)$/.exec(record.identifiers.google_volume ?? '')?.[1];
    const itunes = Number(record.identifiers.apple_books ?? 0) - 100_000_000;
    const id = olWork ?? volume ?? (itunes > 0 ? String(itunes) : null);
    return id ? `gb:${id}` : null;
  };
}

/** Our search as deployed (createServices), over the local half, with the fake providers. */
function providerEngine(store: Store, env: Record<string, string>, books: Goodbooks) {
  const config = loadConfig({
    BASE_URL: 'http://booklink.eval',
    DATABASE_URL: 'sqlite::memory:',
    PROVIDERS: 'openlibrary,googlebooks,itunes',
    ...env,
  });
  const services = createServices(config, store);
  const work = workOf(books);
  const engine: Engine = async (query) => {
    const started = performance.now();
    const outcome = await services.search.search(query.q, 5);
    const ms = performance.now() - started;
    const top = outcome.results[0]?.record ?? null;
    return {
      query,
      topIsbn: top?.isbn13 ?? null,
      topWork: top ? work(top) : null,
      confident: outcome.confident !== null,
      ms,
    };
  };
  return { engine, close: () => services.close() };
}

interface Cell {
  right: number;
  total: number;
}

const right = (a: Answer) => (a.query.expect === null ? !a.confident : a.topWork === a.query.expect);
const wrongRedirect = (a: Answer) => a.confident && a.topWork !== a.query.expect;

function cell(answers: readonly Answer[], keep: (a: Answer) => boolean): Cell {
  const chosen = answers.filter(keep);
  return { right: chosen.filter(right).length, total: chosen.length };
}

const show = ({ right: r, total }: Cell) =>
  total ? `${((100 * r) / total).toFixed(1)}% (${r}/${total})` : '-';

function table(queries: readonly GoodbooksQuery[], runs: ReadonlyArray<[string, Answer[]]>): string {
  const kinds = [...new Set(queries.map((q) => q.kind))].sort();
  const held = (a: Answer) => (a.query as GoodbooksQuery).held;
  const columns: Array<[string, (answers: Answer[], kind: string | null) => Cell]> = [];
  for (const [name, answers] of runs) {
    const ofKind = (kind: string | null) => (a: Answer) => kind === null || a.query.kind === kind;
    if (name === 'minisearch') {
      columns.push([`${name} (whole catalog)`, (_, kind) => cell(answers, ofKind(kind))]);
      continue;
    }
    columns.push([
      `${name} local`,
      (_, kind) => cell(answers, (a) => ofKind(kind)(a) && held(a) === 'local'),
    ]);
    columns.push([
      `${name} provider-only`,
      (_, kind) => cell(answers, (a) => ofKind(kind)(a) && held(a) === 'provider'),
    ]);
    columns.push([`${name} all`, (_, kind) => cell(answers, ofKind(kind))]);
  }
  const header = ['kind', ...columns.map(([name]) => name)];
  const rows = [...kinds, null].map((kind) => [
    kind ?? 'ALL',
    ...columns.map(([, fn]) => show(fn([], kind))),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function printMisses(name: string, answers: readonly Answer[]): void {
  for (const a of answers) {
    if (right(a) && !wrongRedirect(a)) continue;
    const q = a.query as GoodbooksQuery;
    console.log(
      `  ${name} [${q.kind}/${q.held}] "${q.q}" → ${a.topWork ?? 'nothing'} (want ${q.expect ?? 'no redirect'})${a.confident ? ' REDIRECT' : ''}`,
    );
  }
}

/**
 * The goodbooks half of the evaluation: queries.tsv over goodbooks-10k, even book_ids imported,
 * odd ones known only to the fake providers (which know every book, as the real ones do).
 * Skipped with a message when ../shared/data is absent. True when no redirect went to a wrong book.
 */
export async function runGoodbooksEvaluation(options: {
  verbose: boolean;
  dialects?: Dialect[];
  /** Only the queries of this kind (for a quick look while working on one kind). */
  kind?: string;
}): Promise<boolean> {
  const dir = sharedDataDir();
  if (!dir) {
    console.log('goodbooks evaluation skipped: ../shared/data (goodbooks-10k, search-dev) not found');
    return true;
  }
  const books = loadGoodbooks(dir);
  if (options.kind) books.queries = books.queries.filter((q) => q.kind === options.kind);
  console.log(
    `\nGoodbooks evaluation: ${books.queries.length} queries; ${books.local.length} of ${books.all.length} books imported, the rest known only to the (fake) providers`,
  );
  const available: Dialect[] = (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];
  const dialects = (options.dialects ?? available).filter((d) => available.includes(d));
  const fake = await startCatalogProviders(books.providerBooks);
  const runs: Array<[string, Answer[]]> = [];
  let wrong = 0;
  try {
    for (const dialect of dialects) {
      const scratch = await scratchDatabase(dialect, 'goodbooks');
      const { engine, close } = providerEngine(scratch.store, fake.env, books);
      try {
        await loadCatalog(scratch.store, books.local);
        const answers: Answer[] = [];
        for (const query of books.queries) answers.push(await engine(query));
        runs.push([dialect, answers]);
        wrong += answers.filter(wrongRedirect).length;
        const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
        console.log(
          `booklink/${dialect}: median ${ms[Math.floor(ms.length / 2)]?.toFixed(1)} ms, p95 ${ms[Math.floor(ms.length * 0.95)]?.toFixed(1)} ms, max ${ms.at(-1)?.toFixed(1)} ms per query; ${fake.requestCount()} provider requests so far`,
        );
        if (options.verbose) printMisses(dialect, answers);
      } finally {
        await close();
        await scratch.drop();
      }
    }
  } finally {
    await fake.close();
  }
  const mini = miniSearchEngine(books.all);
  const miniAnswers: Answer[] = [];
  for (const query of books.queries) miniAnswers.push(await mini(query));
  runs.push(['minisearch', miniAnswers]);
  console.log(`\nTop-1 right work (rows that must match nothing: right when nothing redirects)\n`);
  console.log(table(books.queries, runs));
  console.log(`\nConfident redirects to a wrong book (all dialects): ${wrong}`);
  return wrong === 0;
}
