import { getOrAdd } from '../domain/memo.js';
import type { Db } from './schema.js';

/** SQL texts by dialect (a database's adapter, which its transactions share) and key. */
const texts = new WeakMap<object, Map<string, string>>();

/**
 * The SQL text `compile` builds, made once per dialect and key. Kysely's query tree for a many-row
 * insert costs milliseconds (a 9,000-value catalog batch, a 2,000-value search-log flush), paid on
 * every statement although only the row count changes the text: key it by what changes it.
 */
export function compiledOnce(db: Db, key: string, compile: () => string): string {
  const adapter = db.getExecutor().adapter;
  return getOrAdd(
    getOrAdd(texts, adapter, () => new Map<string, string>()),
    key,
    compile,
  );
}
