import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. A book created from the catalog asks whether a
// public-domain source (Gutenberg, Standard Ebooks, LibriVox) holds its title and author. In a catalog
// of millions, the title/author index found the book's own editions and read each row to check its
// source (0.6–1 ms at 10M, a third of a book's creation); these few entries get an index of their own.
// SQLite keeps the plain lookup: its parameters are not known when it chooses an index.
export async function publicDomainPostgresMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  await sql
    .raw(
      `create index catalog_entries_public_domain on catalog_entries (match_key, popularity desc)
        where source in ('gutenberg', 'standard_ebooks', 'librivox')`,
    )
    .execute(db);
}
