import './affiliate-tags.js';
import type { Db } from './schema.js';

/** One outbound click as stored; new columns are added here and in `clickRow`. */
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
const ROWS_PER_STATEMENT = 500;
const markKey = (journal: string) => `click-journal:${journal}`;

function clickRow(click: ClickRecord) {
  return {
    book_id: click.bookId,
    destination_id: click.destinationId,
    sfid: click.sfid,
    country: click.country,
    referrer_host: click.referrerHost,
    partner_id: click.partnerId ?? null,
    src: click.src ?? null,
    storefront: click.storefront ?? null,
    tag_kind: click.tagKind ?? null,
    created_at: click.at.toISOString(),
  };
}

/**
 * One transaction, multi-row inserts: all of a batch is written or none of it. With a mark, the
 * journal's position is moved in the same transaction, so a replay never writes these clicks again.
 */
export async function insertClicks(
  db: Db,
  clicks: readonly ClickRecord[],
  mark?: JournalMark,
): Promise<void> {
  if (clicks.length === 0 && !mark) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < clicks.length; start += ROWS_PER_STATEMENT) {
      await trx
        .insertInto('clicks')
        .values(clicks.slice(start, start + ROWS_PER_STATEMENT).map(clickRow))
        .execute();
    }
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
