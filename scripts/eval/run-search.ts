import { join } from 'node:path';
import type { Dialect } from '../../src/store/db.js';
import { postgresReachable, scratchDatabase } from './databases.js';
import { type EvalEntry, type EvalQuery, loadCatalog, readJsonl } from './fixtures.js';
import { miniSearchEngine } from './minisearch.js';
import { formatTable, type KindScore, score, totals } from './report.js';
import { type Answer, booklinkEngine, type Engine } from './search.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'eval');

async function runAll(engine: Engine, queries: readonly EvalQuery[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const query of queries) answers.push(await engine(query));
  return answers;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function printMisses(name: string, answers: readonly Answer[]): void {
  for (const a of answers) {
    const wrong =
      a.query.expect === null
        ? a.confident
        : a.topWork !== a.query.expect || a.confident !== (a.topWork === a.query.expect && a.confident);
    if (wrong || (a.query.expect !== null && a.topIsbn !== a.query.isbn)) {
      console.log(
        `  ${name} [${a.query.kind}] "${a.query.q}" → ${a.topIsbn ?? 'nothing'} (want ${a.query.isbn ?? 'no redirect'})${a.confident ? ' REDIRECT' : ''}`,
      );
    }
  }
}

/** Runs the search half of the evaluation; true when no confident redirect went to a wrong book. */
export async function runSearchEvaluation(options: { verbose: boolean }): Promise<boolean> {
  const entries = readJsonl<EvalEntry>(join(FIXTURES, 'catalog.jsonl'));
  const queries = readJsonl<EvalQuery>(join(FIXTURES, 'queries.jsonl'));
  console.log(`Search evaluation: ${queries.length} queries over ${entries.length} catalog entries\n`);
  const dialects: Dialect[] = (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];
  if (dialects.length === 1) console.warn('PostgreSQL not reachable: evaluating on SQLite only\n');
  const results: Array<[string, KindScore[]]> = [];
  let wrongRedirects = 0;
  for (const dialect of dialects) {
    const scratch = await scratchDatabase(dialect, 'eval');
    try {
      await loadCatalog(scratch.store, entries);
      const answers = await runAll(booklinkEngine(scratch.store, entries), queries);
      const rows = score(answers);
      results.push([`booklink/${dialect}`, rows]);
      wrongRedirects += totals(rows).wrongRedirects;
      console.log(`booklink/${dialect}: median ${median(answers.map((a) => a.ms)).toFixed(2)} ms per query`);
      if (options.verbose) printMisses(dialect, answers);
    } finally {
      await scratch.drop();
    }
  }
  const mini = await runAll(miniSearchEngine(entries), queries);
  if (options.verbose) printMisses('minisearch', mini);
  results.push(['minisearch', score(mini)]);
  console.log(`\n${formatTable(results)}\n`);
  const ours = totals(results[0]![1]);
  const theirs = totals(score(mini));
  const answerable = (rows: KindScore[]) => rows.filter((r) => r.kind !== 'negative');
  const oursAns = totals(answerable(results[0]![1]));
  const theirsAns = totals(answerable(score(mini)));
  const pts = (a: KindScore, b: KindScore, key: 'workHits' | 'editionHits') =>
    (100 * (a[key] / a.total - b[key] / b.total)).toFixed(1);
  console.log(
    `Top-1 work accuracy on answerable queries: booklink ${((100 * oursAns.workHits) / oursAns.total).toFixed(1)}% vs MiniSearch ${((100 * theirsAns.workHits) / theirsAns.total).toFixed(1)}% (+${pts(oursAns, theirsAns, 'workHits')} points)`,
  );
  console.log(
    `Top-1 edition accuracy on answerable queries: +${pts(oursAns, theirsAns, 'editionHits')} points over MiniSearch`,
  );
  console.log(
    `Confident redirects to a wrong book: ${wrongRedirects} (all dialects); booklink ALL ${ours.total} queries`,
  );
  void theirs;
  return wrongRedirects === 0;
}
