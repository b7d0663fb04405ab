import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. `booklink_fold` (0003) feeds the stored search
// vector of every catalog row and the trigram index, so an import computes it twice per edition. Its
// regular expression replaced every run of characters other than letters and digits, so every gap
// between two words was a match: half of the function's time. Runs of whitespace can stay, since
// neither the 'simple' parser nor pg_trgm sees a word in them or tells one run of blanks from another:
// every vector and trigram set stays the same (tested over the first 12,288 code points), so the
// stored vectors and the trigram index stay valid without a rewrite. 1,000,000 synthetic entries:
// the fold took 4.9 s, now 2.3 s, and the stored vector's expression 8.1 s, now 5.2 s (bench/README).
export async function cheaperFoldPostgresMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  const row = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema
    from pg_extension where extname = 'unaccent'`.execute(db);
  const schema = row.rows[0]?.schema;
  // The same unaccenting as 0003 chose: without the extension, text keeps its accents.
  const unaccented = schema
    ? `${schema}.unaccent('${schema}.unaccent'::regdictionary, coalesce(t, ''))`
    : `coalesce(t, '')`;
  await sql
    .raw(`create or replace function booklink_fold(t text) returns text
language sql immutable parallel safe
as $$ select btrim(regexp_replace(lower(${unaccented}), '[^[:alnum:][:space:]]+', ' ', 'g')) $$`)
    .execute(db);
}
