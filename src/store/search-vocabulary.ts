import type { Db } from './schema.js';

/** Title and author text of one catalog entry or book, for the spelling vocabulary. */
export interface VocabularySource {
  title: string;
  subtitle: string | null;
  /** JSON array of names, as stored. */
  authors: string;
  /** JSON object of identifiers (series note, original title) for catalog entries; null for books. */
  identifiers: string | null;
}

/**
 * The text of up to `limit` catalog entries and saved books each, in storage order (no sort: a
 * million-entry catalog is read without scanning it all). Read once in a while, never per query.
 */
export async function vocabularySources(db: Db, limit: number): Promise<VocabularySource[]> {
  const [entries, books] = await Promise.all([
    db
      .selectFrom('catalog_entries')
      .select(['title', 'subtitle', 'authors', 'identifiers'])
      .limit(limit)
      .execute(),
    db.selectFrom('books').select(['title', 'subtitle', 'authors']).limit(limit).execute(),
  ]);
  return [...entries, ...books.map((book) => ({ ...book, identifiers: null }))];
}
