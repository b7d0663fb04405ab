/**
 * The labelled evaluation: `npx tsx scripts/eval.ts [--verbose] [--sqlite-only|--postgres-only] [--goodbooks-only] [--kind=typo]`.
 * 1. test/fixtures/eval: catalog.jsonl loaded into a fresh SQLite database (and PostgreSQL when
 *    reachable), queries.jsonl through our search and through MiniSearch.
 * 2. ../shared/data/search-dev/queries.tsv over goodbooks-10k (read in place; skipped when absent):
 *    even book_ids imported, odd ones known only to local fake providers; local and provider-only
 *    figures per query kind, and MiniSearch over the whole catalog.
 * Prints top-1 accuracy per query kind and wrong confident redirects; exits non-zero on any.
 */
import type { Dialect } from '../src/store/db.js';
import { runGoodbooksEvaluation } from './eval/run-goodbooks.js';
import { runSearchEvaluation } from './eval/run-search.js';

const verbose = process.argv.includes('--verbose');
const only = (['sqlite', 'postgres'] as const).find((d) => process.argv.includes(`--${d}-only`));
const dialects: Dialect[] | undefined = only ? [only] : undefined;
const goodbooksOnly = process.argv.includes('--goodbooks-only');
const kind = process.argv.find((arg) => arg.startsWith('--kind='))?.slice('--kind='.length);

async function main(): Promise<boolean> {
  const fixtures = goodbooksOnly ? true : await runSearchEvaluation({ verbose });
  const goodbooks = await runGoodbooksEvaluation({ verbose, dialects, kind });
  return fixtures && goodbooks;
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
