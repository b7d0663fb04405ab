import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Identifiers that public-domain catalogs (an imported Gutenberg catalog, Standard Ebooks, LibriVox)
 * hold for a work, found by its match key ("title|author surname"). The first value per scheme wins,
 * most popular entry first.
 */
export async function publicDomainIdentifiersFor(
  db: Kysely<Database>,
  matchKey: string,
  schemes: readonly string[],
): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('catalog_entries')
    .select('identifiers')
    .where('match_key', '=', matchKey)
    .where('source', 'in', [...schemes])
    .orderBy('popularity', 'desc')
    .limit(10)
    .execute();
  const found: Record<string, string> = {};
  for (const row of rows) {
    let identifiers: Record<string, unknown> = {};
    try {
      identifiers = JSON.parse(row.identifiers) as Record<string, unknown>;
    } catch {
      continue;
    }
    for (const scheme of schemes) {
      const value = identifiers[scheme];
      if (typeof value === 'string' && value && !found[scheme]) found[scheme] = value;
    }
  }
  return found;
}
