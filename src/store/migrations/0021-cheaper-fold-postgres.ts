import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. `booklink_fold` (0003) feeds the stored search
// vector of every catalog row and the trigram index, so a first import computes it twice per edition.
// Two things made it slow. Its regular expression replaced every run of characters other than letters
// and digits, so every gap between two words was a match; runs of whitespace can stay, since neither
// the 'simple' parser nor pg_trgm sees a word in them or tells one run of blanks from another: every
// vector and trigram set stays the same (tested over the first 12,288 code points), so the stored
// vectors and the trigram index stay valid without a rewrite. And as SQL it was never inlined
// (unaccent is only STABLE), so every call started an executor of its own; PL/pgSQL evaluates the same
// expression directly. Over 1,000,000 synthetic entries the fold took 4.8-5.3 s, the new expression
// as SQL 3.5-3.8 s, as PL/pgSQL 2.6-2.9 s; a 10M import on PostgreSQL, 941 s against 1,017 (bench/README).
/**
 * The unaccented text of `t` as 0003 chose it: unaccent from the schema the extension is in, or, without
 * the extension, the text as it is. 0024 folds the same way.
 */
export async function unaccentedText(db: Kysely<unknown>): Promise<string> {
  const extension = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema
    from pg_extension where extname = 'unaccent'`.execute(db);
  const schema = extension.rows[0]?.schema;
  return schema
    ? `${schema}.unaccent('${schema}.unaccent'::regdictionary, coalesce(t, ''))`
    : `coalesce(t, '')`;
}

/** `booklink_fold(t)` returning `fold`: PL/pgSQL where the database has it (an operator may drop it), else SQL. */
export async function defineFold(db: Kysely<unknown>, fold: string): Promise<void> {
  const plpgsql = await sql`select 1 from pg_language where lanname = 'plpgsql'`.execute(db);
  const body =
    plpgsql.rows.length > 0
      ? `language plpgsql as $$ begin return ${fold}; end $$`
      : `language sql as $$ select ${fold} $$`;
  await sql
    .raw(`create or replace function booklink_fold(t text) returns text immutable parallel safe ${body}`)
    .execute(db);
}

export async function cheaperFoldPostgresMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  const unaccented = await unaccentedText(db);
  await defineFold(db, `btrim(regexp_replace(lower(${unaccented}), '[^[:alnum:][:space:]]+', ' ', 'g'))`);
}
