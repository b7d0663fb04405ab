import type { Db } from './schema.js';

/**
 * Catalog sources whose entries confirm that a free public-domain copy of a work exists (an imported
 * Gutenberg catalog, Standard Ebooks, LibriVox); each entry holds its copy's id under the scheme of its
 * source's name. PostgreSQL indexes the entries of exactly these sources (migration 0019): another
 * source here needs a migration.
 */
export const PUBLIC_DOMAIN_SOURCES = ['gutenberg', 'standard_ebooks', 'librivox'] as const;

/** How many confirming entries of one work are read: the most popular first. */
const PUBLIC_DOMAIN_ENTRIES = 10;

/**
 * The free copies' identifiers in public-domain entries' identifier JSON: the first value per scheme
 * wins, so entries come most popular first. An entry whose JSON does not parse confirms nothing.
 */
export function freeCopyIdentifiers(entries: ReadonlyArray<{ identifiers: string }>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of entries) {
    let identifiers: Record<string, unknown> = {};
    try {
      identifiers = JSON.parse(entry.identifiers) as Record<string, unknown>;
    } catch {
      continue;
    }
    for (const scheme of PUBLIC_DOMAIN_SOURCES) {
      const value = identifiers?.[scheme];
      if (typeof value === 'string' && value && !found[scheme]) found[scheme] = value;
    }
  }
  return found;
}

/** The public-domain entries of a work, found by its match key ("title|author surname"). */
export const publicDomainEntries = (db: Db, matchKey: string | null) =>
  db
    .selectFrom('catalog_entries')
    .select('identifiers')
    .where('match_key', '=', matchKey)
    .where('source', 'in', [...PUBLIC_DOMAIN_SOURCES])
    .orderBy('popularity', 'desc')
    .limit(PUBLIC_DOMAIN_ENTRIES);

/** The identifiers of a work's free copies, as public-domain catalogs hold them. */
export async function publicDomainIdentifiersFor(db: Db, matchKey: string): Promise<Record<string, string>> {
  return freeCopyIdentifiers(await publicDomainEntries(db, matchKey).execute());
}
