import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';
import { defineFold, unaccentedText } from './0021-cheaper-fold-postgres.js';

// Self-contained: never imports live model code (0021's fold helpers are frozen with it). Search words must split alike in the stored index and
// in the query (domain/query.ts `indexTokens`), and SQLite's unicode61 splits a word at every combining
// mark (an Indic vowel sign or virama, a Thai vowel, a Hebrew point), as the query's tokens do.
// PostgreSQL's `booklink_fold` (0003, 0021) kept the marks that its locale calls alphanumeric and split
// at the others: "हिन्दी" was indexed as 'हिन' 'दी' and asked as 'ह' 'न' 'द', and no Hindi title was
// found. It now splits at every mark too (the accents unaccent removes stay removed). The marks are
// the code points JavaScript's Unicode tables call \p{M}, the same tables the query's tokens use. Only
// rows holding a mark fold differently: their stored search vectors are computed again.

/** `\p{M}` as ranges of a PostgreSQL bracket expression (`\uXXXX-\uYYYY`, `\UXXXXXXXX` past U+FFFF). */
export function markRanges(): string {
  const hex = (cp: number) =>
    cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  const ranges: string[] = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const mark = cp < 0x110000 && /\p{M}/u.test(String.fromCodePoint(cp));
    if (mark && start < 0) start = cp;
    if (!mark && start >= 0) {
      ranges.push(start === cp - 1 ? hex(start) : `${hex(start)}-${hex(cp - 1)}`);
      start = -1;
    }
  }
  return ranges.join('');
}

export async function foldMarksPostgresMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  // The same unaccenting as 0003 and 0021 chose: without the extension, text keeps its accents.
  const unaccented = await unaccentedText(db);
  const marks = `[${markRanges()}]`;
  const split = (pattern: string) => `btrim(regexp_replace(lower(${unaccented}), '${pattern}', ' ', 'g'))`;
  // No mark comes before U+0300: most text (ASCII, Latin-1) skips the longer pattern, which cost a
  // fold 13 % more (200,000 folds of an English title and author, medians of five runs).
  const fold = `case when t ~ '[\\u0300-\\U0010ffff]' then ${split(`[^[:alnum:][:space:]]+|${marks}+`)}
    else ${split('[^[:alnum:][:space:]]+')} end`;
  await defineFold(db, fold);
  // A stored generated column is computed again when its row is written; the trigram index with it.
  for (const table of ['catalog_entries', 'books']) {
    const text =
      table === 'catalog_entries'
        ? `title || ' ' || authors || ' ' || coalesce(identifiers, '')`
        : `title || ' ' || authors`;
    await sql.raw(`update ${table} set title = title where (${text}) ~ '${marks}'`).execute(db);
  }
}
