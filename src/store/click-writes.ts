import { type Insertable, sql } from 'kysely';
import './affiliate-tags.js';
import { compiledOnce, insertInTurns } from './compiled.js';
import type { Database, Db } from './schema.js';

// Migration 0035's table, merged into the shared Database type from here.
declare module './schema.js' {
  interface Database {
    book_clicks: BookClickTable;
  }
}

/** A book's outbound clicks of all time, kept with the clicks themselves (search ranking reads it). */
export interface BookClickTable {
  book_id: number;
  clicks: number;
}

/** One outbound click as stored; new columns are added here, in `CLICK_COLUMNS` and in `clickValues`. */
export interface ClickRecord {
  bookId: number;
  destinationId: number;
  sfid: number | null;
  country: string | null;
  referrerHost: string | null;
  at: Date;
  /** The active partner whose tag the redirect carried (`partner=`). */
  partnerId?: string | null;
  /** The placement word of the link (`src=qr`). */
  src?: string | null;
  /** The storefront the click went to: '' for the destination's own store, else its country. */
  storefront?: string | null;
  /** Whose tag the redirect carried: the operator's, a partner's, or none. */
  tagKind?: 'operator' | 'partner' | 'none' | null;
}

/** How far a click journal has reached the database: written in the same transaction as its clicks. */
export interface JournalMark {
  journal: string;
  seq: number;
}

// Well under SQLite's and PostgreSQL's bound-parameter limits at 10 columns a row.
// Short enough a text for the SQLite connection to keep it prepared (db.ts keeps texts under 8,000
// characters): a 500-row insert would be prepared anew on every flush.
const ROWS_PER_STATEMENT = 200;
const markKey = (journal: string) => `click-journal:${journal}`;

const CLICK_COLUMNS = [
  'book_id',
  'destination_id',
  'sfid',
  'country',
  'referrer_host',
  'partner_id',
  'src',
  'storefront',
  'tag_kind',
  'created_at',
] as const;

/** A click's values in `CLICK_COLUMNS` order. */
function clickValues(click: ClickRecord): unknown[] {
  return [
    click.bookId,
    click.destinationId,
    click.sfid,
    click.country,
    click.referrerHost,
    click.partnerId ?? null,
    click.src ?? null,
    click.storefront ?? null,
    click.tagKind ?? null,
    click.at.toISOString(),
  ];
}

/**
 * The insert of `count` clicks, compiled once per dialect and size: Kysely's query tree for a
 * 200-row insert (2,000 values) was built again on every flush of `/go/`'s clicks, although only the
 * row count changes the text.
 */
function clickInsertSql(db: Db, count: number): string {
  return compiledOnce(db, `clicks:${count}`, () => {
    // Any values: only the text is kept, and its columns are in `CLICK_COLUMNS` order.
    const blank = Object.fromEntries(CLICK_COLUMNS.map((column) => [column, 0])) as unknown as Insertable<
      Database['clicks']
    >;
    return db
      .insertInto('clicks')
      .values(Array.from({ length: count }, () => blank))
      .compile().sql;
  });
}

/**
 * The upsert adding `count` books' clicks of a batch to their totals, compiled once per dialect and
 * size. A statement names each book once: PostgreSQL refuses to update one row twice in a statement.
 */
function bookClicksSql(db: Db, count: number): string {
  return compiledOnce(
    db,
    `book-clicks:${count}`,
    () =>
      db
        .insertInto('book_clicks')
        .values(Array.from({ length: count }, () => ({ book_id: 0, clicks: 0 })))
        .onConflict((oc) =>
          oc.column('book_id').doUpdateSet({ clicks: sql<number>`book_clicks.clicks + excluded.clicks` }),
        )
        .compile().sql,
  );
}

/** A batch's clicks per book. */
function clicksByBook(clicks: readonly ClickRecord[]): Array<[bookId: number, clicks: number]> {
  const counts = new Map<number, number>();
  for (const click of clicks) counts.set(click.bookId, (counts.get(click.bookId) ?? 0) + 1);
  return [...counts];
}

/**
 * One transaction, multi-row inserts with a turn of the event loop between them (`insertInTurns`):
 * all of a batch is written, and added to its books' totals (`book_clicks`), or none of it. With a mark, the
 * journal's position is moved in the same transaction, so a replay never writes these clicks again.
 */
export async function insertClicks(
  db: Db,
  clicks: readonly ClickRecord[],
  mark?: JournalMark,
): Promise<void> {
  if (clicks.length === 0 && !mark) return;
  await db.transaction().execute(async (trx) => {
    await insertInTurns(trx, clicks, ROWS_PER_STATEMENT, (count) => clickInsertSql(trx, count), clickValues);
    await insertInTurns(
      trx,
      clicksByBook(clicks),
      ROWS_PER_STATEMENT,
      (count) => bookClicksSql(trx, count),
      (counted) => counted,
    );
    if (mark) {
      await trx
        .insertInto('settings')
        .values({ key: markKey(mark.journal), value: String(mark.seq) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(mark.seq) }))
        .execute();
    }
  });
}

/** The last journal position written to the database (0: nothing yet). */
export async function journalMark(db: Db, journal: string): Promise<number> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', markKey(journal))
    .executeTakeFirst();
  return row ? Number(row.value) : 0;
}

/** Forgets a journal's position once the journal itself is deleted. */
export async function forgetJournalMark(db: Db, journal: string): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', markKey(journal)).execute();
}
