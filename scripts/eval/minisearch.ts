import MiniSearch from 'minisearch';
import type { EvalEntry } from './fixtures.js';
import type { Engine } from './search.js';

/**
 * A general-purpose baseline: MiniSearch with fuzzy and prefix matching over the same fields
 * (title boosted, authors, both ISBNs). It has no notion of confidence, so it never "redirects".
 */
export function miniSearchEngine(entries: readonly EvalEntry[]): Engine {
  const index = new MiniSearch<EvalEntry>({
    fields: ['title', 'authorText', 'isbn13', 'isbn10'],
    storeFields: ['isbn13', 'work'],
    extractField: (doc, field) =>
      field === 'authorText'
        ? doc.authors.join(' ')
        : String((doc as unknown as Record<string, unknown>)[field] ?? ''),
    searchOptions: { boost: { title: 2 }, fuzzy: 0.2, prefix: true },
  });
  index.addAll(entries);
  return async (query) => {
    const started = performance.now();
    const [top] = index.search(query.q);
    const ms = performance.now() - started;
    return {
      query,
      topIsbn: (top?.isbn13 as string | undefined) ?? null,
      topWork: (top?.work as string | undefined) ?? null,
      confident: false,
      ms,
    };
  };
}
