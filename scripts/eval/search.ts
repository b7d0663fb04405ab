import { LocalCatalogProvider } from '../../src/catalog/local.js';
import { BookCreator } from '../../src/services/book-creator.js';
import { SearchService } from '../../src/services/search/service.js';
import type { Store } from '../../src/store/db.js';
import type { EvalEntry, EvalQuery } from './fixtures.js';

/** What one engine answered for one query: top-1 edition and whether it would redirect. */
export interface Answer {
  query: EvalQuery;
  topIsbn: string | null;
  topWork: string | null;
  confident: boolean;
  ms: number;
}

export type Engine = (query: EvalQuery) => Promise<Answer>;

/** Our search service over a loaded store, without providers: the local catalog only. */
export function booklinkEngine(store: Store, entries: readonly EvalEntry[]): Engine {
  const local = new LocalCatalogProvider(store.db);
  const search = new SearchService(store, local, new BookCreator(store, local, null), null);
  const workByIsbn = new Map(entries.flatMap((e) => (e.isbn13 ? [[e.isbn13, e.work] as const] : [])));
  return async (query) => {
    const started = performance.now();
    const outcome = await search.search(query.q, 5);
    const ms = performance.now() - started;
    const top = outcome.results[0]?.record.isbn13 ?? null;
    return {
      query,
      topIsbn: top,
      topWork: top ? (workByIsbn.get(top) ?? null) : null,
      confident: outcome.confident !== null,
      ms,
    };
  };
}
