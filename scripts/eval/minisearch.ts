import MiniSearch from 'minisearch';
import type { EvalEntry } from './fixtures.js';
import type { Engine } from './search.js';

/**
 * A general-purpose baseline: MiniSearch with fuzzy and prefix matching over the same fields
 * (title boosted, authors, series and original title, both ISBNs). It has no notion of confidence,
 * so it never "redirects".
 */
export function miniSearchEngine(entries: readonly EvalEntry[]): Engine {
  const index = new MiniSearch<EvalEntry>({
    fields: ['title', 'authorText', 'seriesText', 'isbn13', 'isbn10'],
    storeFields: ['isbn13', 'work'],
    extractField: (doc, field) => {
      if (field === 'authorText') return doc.authors.join(' ');
      if (field === 'seriesText') return `${doc.series ?? ''} ${doc.original_title ?? ''}`;
      return String((doc as unknown as Record<string, unknown>)[field] ?? '');
    },
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
