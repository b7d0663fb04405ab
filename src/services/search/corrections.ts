import { editDistance } from '../../domain/edit-distance.js';
import type { Store } from '../../store/db.js';
import type { Db } from '../../store/schema.js';
import { heldConnection } from '../../store/search/direct.js';
import { unlistedCount } from '../../store/search/postgres.js';
import { prefixEnd } from '../../store/search/query-text.js';
import { directTerms, indexTermCounts, indexTermRange, savedTermRange } from '../../store/search/sqlite.js';
import { listedCounts, type TermRow } from '../../store/search/vocabulary.js';
import {
  connectionOf,
  listedWordCounts,
  listedWords,
  rememberedWordCounts,
  wordListed,
} from './listed-words.js';

/** Indexed words within `allowed` edits of a typed word, with how many rows hold each. */
type Vocabulary = Map<string, number>;

/**
 * The index's words and how many rows hold each, for spelling corrections. SQLite reads them from
 * `catalog_terms` (every import refreshes it) or, while that is empty, from the full-text index
 * itself, and the saved books' from their own index. PostgreSQL reads `catalog_terms` alone: its
 * corrections use trigrams until an import has filled it (`wordListed`).
 */
export interface Terms {
  /** Words from `lower` (inclusive) to `upper` (exclusive) whose length is within `lengths`. */
  range(lower: string, upper: string, lengths: readonly [number, number]): Promise<TermRow[]>;
  /** How many rows of the catalog and of the saved books hold each word. */
  counts(words: readonly string[]): Promise<Map<string, number>>;
}

const add = (counts: Map<string, number>, rows: readonly TermRow[]) => {
  for (const { term, doc } of rows) counts.set(term, (counts.get(term) ?? 0) + Number(doc));
  return counts;
};

export async function sqliteTerms(store: Store): Promise<Terms> {
  const { db } = store;
  const connection = connectionOf(store);
  const listed = await wordListed(db, connection);
  // Inside a search's read transaction the reads run directly (store/search/direct.ts).
  const sqlite = heldConnection(store);
  return {
    async range(lower, upper, lengths) {
      if (listed) {
        const catalog = await listedWords(connection, db, lower, upper, lengths);
        const saved = sqlite
          ? directTerms.range(sqlite, ['books_fts_vocab'], lower, upper, lengths)
          : await savedTermRange(db, lower, upper, lengths);
        return [...catalog, ...saved];
      }
      if (sqlite)
        return directTerms.range(sqlite, ['catalog_fts_vocab', 'books_fts_vocab'], lower, upper, lengths);
      return indexTermRange(db, lower, upper, lengths);
    },
    counts: (words) =>
      rememberedWordCounts(connection, words, async (missing) => {
        const known = listed
          ? sqlite
            ? directTerms.listedCounts(sqlite, missing)
            : await listedCounts(db, missing)
          : [];
        // A word the last import did not see (every word, before any import) is counted in the index:
        // cheap for the rare words it will be, where a common word's count reads its every row.
        const seen = new Set(known.map((row) => row.term));
        const unseen = missing.filter((word) => !seen.has(word));
        const counted = sqlite
          ? directTerms.indexCounts(sqlite, missing, unseen)
          : await indexTermCounts(db, missing, unseen);
        return add(add(new Map(), known), counted);
      }),
  };
}

export function postgresTerms(db: Db): Terms {
  return {
    range: (lower, upper, lengths) => listedWords(db, db, lower, upper, lengths),
    counts: (words) =>
      rememberedWordCounts(db, words, async (missing) => {
        const listed = await listedWordCounts(db, missing);
        const counts = new Map([...listed].filter(([, documents]) => documents > 0));
        for (const word of missing.filter((w) => !counts.has(w) && /[\p{L}\p{N}]/u.test(w))) {
          const n = await unlistedCount(db, word);
          if (n > 0) counts.set(word, n);
        }
        return counts;
      }),
  };
}

async function vocabularyNear(
  terms: Terms,
  token: string,
  allowed: number,
  /** Each word kept with its distance from `token`, for the order (corrections' sort measured each again per comparison). */
  distances: Map<string, number>,
): Promise<Vocabulary> {
  const prefixes = [...new Set([token.slice(0, 2), `${token[1]}${token[0]}`])];
  const found: Vocabulary = new Map();
  const keep = (rows: readonly TermRow[]) => {
    for (const { term, doc } of rows) {
      if (term === token) continue;
      const distance = distances.get(term) ?? editDistance(token, term, allowed);
      if (distance > allowed) continue;
      distances.set(term, distance);
      found.set(term, (found.get(term) ?? 0) + Number(doc));
    }
  };
  for (const prefix of prefixes) {
    keep(await terms.range(prefix, prefixEnd(prefix), [token.length - allowed, token.length + allowed]));
  }
  if (found.size === 0 && token.length >= 6) {
    // A typo in the second letter ("moddlesex"): scan the first letter's words, length-bounded.
    const first = token[0]!;
    keep(await terms.range(first, prefixEnd(first), [token.length - 1, token.length + 1]));
  }
  return found;
}

/**
 * Spelling corrections from the index's words: those sharing the first two letters (or those two
 * swapped) within two edits, nearest and then most common first ("hary" → "harry" before "harp").
 * A word the index holds keeps itself first; it gains corrections only when `rareToo` and it is far
 * rarer than a neighbour ("poter" may be an author's name, "potter" is the book).
 */
export async function corrections(
  terms: Terms,
  token: string,
  rareToo: boolean,
  count: number,
): Promise<string[]> {
  if (token.length < 4 || /^\d+$/.test(token)) return count > 0 ? [token] : [];
  if (count > 0 && !rareToo) return [token];
  // Within the `allowed` (at most 2) edits kept, a bounded distance is the exact one, as `editDistance`'s
  // default bound of 2 measured it for the sort: each word is measured once, not per comparison.
  const distances = new Map<string, number>();
  const near = await vocabularyNear(terms, token, token.length >= 8 ? 2 : 1, distances);
  const ordered = [...near.entries()]
    .filter(([, doc]) => count === 0 || doc >= 10 * count)
    .sort((a, b) => (distances.get(a[0]) ?? 0) - (distances.get(b[0]) ?? 0) || b[1] - a[1])
    .map(([term]) => term)
    .slice(0, 4);
  // A word no entry holds can only empty an AND query: it is dropped unless it has a correction.
  return count > 0 ? [token, ...ordered] : ordered;
}
