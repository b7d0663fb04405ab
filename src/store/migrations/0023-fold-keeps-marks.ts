import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code, so both folds are copied here as they stand. Text
// folding decomposed text (NFKD), stripped accents and split words at every other character that was no
// letter or digit: a kana's voiced mark (U+3099), a Hangul syllable's jamo, an Indic vowel sign. It now
// composes the text again (NFKD less accents, then NFC) and keeps marks inside words, so "消極性デザイン宣言"
// folds to itself, not "消極性テ サ イン宣言". The stored match keys (catalog entries and books, which group
// editions into works and find public-domain copies) are folded text: a key the old fold gave that the
// new one changes is keyed again, here. Only text outside printable ASCII can change, and only keys the
// old fold reproduces from the row's own title and authors are rewritten (an Open Library dump entry
// keyed by its by-statement's names keeps its key).

const NOT_PLAIN_ASCII = /[^\x20-\x7e]/;
const OPTIONAL_MARKS = /[\u0300-\u036f\u0591-\u05c7\u064b-\u065f\u0670]/g;
const LEADING_ARTICLE = /^(the|a|an|le|la|les|el|los|las|der|die|das|il|lo)\s+/;

type Fold = (text: string) => string;

const finish = (text: string, words: RegExp) =>
  text.replace(/&/g, ' and ').toLowerCase().replace(/['’`]/g, '').replace(words, ' ').trim();

const oldFold: Fold = (text) =>
  finish(
    NOT_PLAIN_ASCII.test(text)
      ? text
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, '')
          .replace(/ß/g, 'ss')
          .replace(/[æ]/gi, 'ae')
          .replace(/[ø]/gi, 'o')
      : text,
    /[^\p{L}\p{N}]+/gu,
  );

const newFold: Fold = (text) =>
  finish(
    NOT_PLAIN_ASCII.test(text)
      ? text
          .normalize('NFKD')
          .replace(OPTIONAL_MARKS, '')
          .normalize('NFC')
          .replace(/(^|[^\p{L}\p{N}\p{M}])\p{M}+/gu, '$1')
          .replace(/ß/g, 'ss')
          .replace(/[æ]/gi, 'ae')
          .replace(/[ø]/gi, 'o')
      : text,
    /[^\p{L}\p{N}\p{M}]+/gu,
  );

function matchKey(fold: Fold, title: string, authors: readonly string[]): string | null {
  const withoutSeries = title.replace(/\s*\([^)]*#\s*[\d.]+[^)]*\)\s*$/, '');
  const withoutSubtitle = withoutSeries.split(/\s*[:;]\s+|\s+[-–—]\s+/)[0] ?? withoutSeries;
  const titleKey = fold(withoutSubtitle).replace(LEADING_ARTICLE, '');
  if (!titleKey) return null;
  const author = authors[0]?.replace(/\([^)]*\)/g, '').trim() ?? '';
  const inverted = author.includes(',');
  const words = fold(inverted ? (author.split(',')[0] ?? author) : author)
    .split(' ')
    .filter(Boolean);
  return `${titleKey}|${inverted ? words.join(' ') : (words.at(-1) ?? '')}`;
}

function authorsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

interface KeyedRow {
  id: number | string;
  title: string;
  authors: string;
  match_key: string | null;
}

const BATCH = 2000;

async function rekey(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: 'catalog_entries' | 'books',
): Promise<void> {
  const outsideAscii = dialect === 'sqlite' ? sql`glob '*[^ -~]*'` : sql`~ '[^ -~]'`;
  let after = 0;
  for (;;) {
    const { rows } = await sql<KeyedRow>`select id, title, authors, match_key from ${sql.table(table)}
      where id > ${after} and (title ${outsideAscii} or authors ${outsideAscii})
      order by id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const authors = authorsOf(row.authors);
      if (row.match_key !== matchKey(oldFold, row.title, authors)) continue;
      const key = matchKey(newFold, row.title, authors);
      if (key === row.match_key) continue;
      await sql`update ${sql.table(table)} set match_key = ${key} where id = ${row.id}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = Number(last.id);
  }
}

export async function foldKeepsMarksMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await rekey(db, dialect, 'catalog_entries');
  await rekey(db, dialect, 'books');
}
