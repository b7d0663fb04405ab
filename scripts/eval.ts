/**
 * The labelled evaluation: `npx tsx scripts/eval.ts [--verbose]`. Loads test/fixtures/eval/catalog.jsonl
 * into a fresh SQLite database (and PostgreSQL when reachable), runs the queries of queries.jsonl through
 * our search and through MiniSearch, and prints top-1 accuracy per query kind and wrong confident
 * redirects. Exits non-zero when a confident redirect goes to a wrong book.
 */
import { runSearchEvaluation } from './eval/run-search.js';

const verbose = process.argv.includes('--verbose');
runSearchEvaluation({ verbose })
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
