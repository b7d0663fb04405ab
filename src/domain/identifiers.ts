import type { BookRecord } from './book-record.js';

/** One identifier of an edition under the identifier index's scheme name (`['oclc', '41333709']`). */
export type IdentifierPair = readonly [scheme: string, value: string];

/** Keys of a record's `identifiers` that are notes kept for search and pages, not identifiers. */
export const IDENTIFIER_NOTES: ReadonlySet<string> = new Set(['series', 'original_title', 'ol_authors']);

/**
 * Scheme names a URL or a provider uses for one the index stores under another: a WorldCat id is an
 * OCLC number, an Amazon id an ASIN.
 */
const SCHEME_ALIASES: Readonly<Record<string, string>> = { worldcat: 'oclc', amazon: 'asin' };

/** The index's name for a scheme; an `isbn` is stored under the form it has. */
export function indexedScheme(scheme: string, value: string): string {
  if (scheme === 'isbn') return value.length === 10 ? 'isbn10' : 'isbn13';
  return SCHEME_ALIASES[scheme] ?? scheme;
}

/**
 * Everything the identifier index should hold for a record: its ISBNs, every identifier its source
 * listed (several values of a scheme included) and the first-of-each it keeps in `identifiers`,
 * under the index's scheme names, each pair once, notes left out.
 */
export function identifierIndexPairs(record: BookRecord): IdentifierPair[] {
  const unique = new UniquePairs();
  const add = (scheme: string, value: string | null | undefined) => {
    const text = value?.trim();
    if (text && !IDENTIFIER_NOTES.has(scheme)) unique.add(indexedScheme(scheme, text), text);
  };
  add('isbn13', record.isbn13);
  add('isbn10', record.isbn10);
  for (const [scheme, value] of record.allIdentifiers ?? []) add(scheme, value);
  for (const [scheme, value] of Object.entries(record.identifiers)) add(scheme, value);
  return unique.pairs;
}

/** Identifier pairs, each kept once, in the order they were first added. */
export class UniquePairs {
  readonly pairs: IdentifierPair[] = [];
  private readonly seen = new Set<string>();

  add(scheme: string, value: string): void {
    const key = `${scheme}\0${value}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.pairs.push([scheme, value]);
  }
}

/**
 * The identifiers of a record that name its one edition, for finding a saved book it already became:
 * a work key names every edition of the work, and notes name nothing.
 */
export function editionIdentifiers(identifiers: Readonly<Record<string, string>>): IdentifierPair[] {
  return Object.entries(identifiers).filter(
    ([scheme, value]) => value !== '' && scheme !== 'ol_work' && !IDENTIFIER_NOTES.has(scheme),
  );
}
