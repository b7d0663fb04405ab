import {
  OFFER_SOURCES,
  type Offer,
  type OfferKind,
  type OfferRead,
  type OfferSource,
  type OfferState,
} from '../domain/offers.js';
import type { Db } from './schema.js';

// Migration 0032's tables, merged into the shared Database type from here.
declare module './schema.js' {
  interface Database {
    book_offers: BookOfferTable;
    offer_reads: OfferReadTable;
  }
}

export interface BookOfferTable {
  book_id: number;
  source: string;
  country: string;
  kind: string;
  state: string;
  amount: number | null;
  currency: string | null;
  url: string | null;
  read_at: string;
}

export interface OfferReadTable {
  book_id: number;
  source: string;
  country: string;
  read_at: string | null;
  /** Epoch milliseconds until which `lease_owner` alone may read this offer again. */
  lease_until: number;
  lease_owner: string;
  last_error: string | null;
}

const SOURCES: ReadonlySet<string> = new Set(OFFER_SOURCES);
const KINDS: ReadonlySet<string> = new Set<OfferKind>(['ebook', 'audiobook', 'borrow']);
const STATES: ReadonlySet<string> = new Set<OfferState>([
  'for_sale',
  'free',
  'not_for_sale',
  'borrow_now',
  'waitlist',
  'read_free',
]);

function offerRowToOffer(row: BookOfferTable): Offer | null {
  if (!SOURCES.has(row.source) || !KINDS.has(row.kind) || !STATES.has(row.state)) return null;
  return {
    source: row.source as OfferSource,
    country: row.country,
    kind: row.kind as OfferKind,
    state: row.state as OfferState,
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    url: row.url,
    readAt: row.read_at,
  };
}

/** Every stored offer of a book, all countries. */
export async function offersForBook(db: Db, bookId: number): Promise<Offer[]> {
  const rows = await db.selectFrom('book_offers').selectAll().where('book_id', '=', bookId).execute();
  return rows.map(offerRowToOffer).filter((offer): offer is Offer => offer !== null);
}

export interface OfferReadRow extends OfferRead {
  lastError: string | null;
}

/** When each source was last read for the book, per country. */
export async function offerReadsForBook(db: Db, bookId: number): Promise<OfferReadRow[]> {
  const rows = await db
    .selectFrom('offer_reads')
    .select(['source', 'country', 'read_at', 'last_error'])
    .where('book_id', '=', bookId)
    .execute();
  return rows
    .filter((row) => SOURCES.has(row.source))
    .map((row) => ({
      source: row.source as OfferSource,
      country: row.country,
      readAt: row.read_at,
      lastError: row.last_error,
    }));
}

export interface OfferClaim {
  bookId: number;
  source: OfferSource;
  country: string;
  owner: string;
  /** Now, in epoch milliseconds. */
  now: number;
  leaseMs: number;
  /** Read before this time (ISO 8601): stale, worth reading again. */
  staleBefore: string;
}

/**
 * Takes the lease to read one offer, or answers false when another reader holds it or the stored
 * read is still fresh. The first claim inserts the row; later ones take it over with one
 * conditional UPDATE, atomic on both databases (PostgreSQL re-checks the condition on the row it
 * locked), so of several instances asking at once exactly one wins.
 */
export async function claimOfferRead(db: Db, claim: OfferClaim): Promise<boolean> {
  const until = claim.now + claim.leaseMs;
  const inserted = await db
    .insertInto('offer_reads')
    .values({
      book_id: claim.bookId,
      source: claim.source,
      country: claim.country,
      read_at: null,
      lease_until: until,
      lease_owner: claim.owner,
      last_error: null,
    })
    .onConflict((oc) => oc.columns(['book_id', 'source', 'country']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const updated = await db
    .updateTable('offer_reads')
    .set({ lease_until: until, lease_owner: claim.owner })
    .where('book_id', '=', claim.bookId)
    .where('source', '=', claim.source)
    .where('country', '=', claim.country)
    .where('lease_until', '<=', claim.now)
    .where((eb) => eb.or([eb('read_at', 'is', null), eb('read_at', '<', claim.staleBefore)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Stores what a source answered (its offers replace the ones it gave before for that country) and
 * releases the lease. Only the lease's owner writes: a reader whose lease ran out writes nothing.
 */
export async function storeOfferRead(
  db: Db,
  claim: Pick<OfferClaim, 'bookId' | 'source' | 'country' | 'owner'>,
  offers: readonly Omit<Offer, 'readAt'>[],
  readAt: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const released = await trx
      .updateTable('offer_reads')
      .set({ read_at: readAt, lease_until: 0, lease_owner: '', last_error: null })
      .where('book_id', '=', claim.bookId)
      .where('source', '=', claim.source)
      .where('country', '=', claim.country)
      .where('lease_owner', '=', claim.owner)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) === 0) return false;
    // Open Library's offers are stored under `*`; the read row under the same key.
    await trx
      .deleteFrom('book_offers')
      .where('book_id', '=', claim.bookId)
      .where('source', '=', claim.source)
      .where('country', '=', claim.country)
      .execute();
    if (offers.length > 0) {
      await trx
        .insertInto('book_offers')
        .values(
          offers.map((offer) => ({
            book_id: claim.bookId,
            source: claim.source,
            country: claim.country,
            kind: offer.kind,
            state: offer.state,
            amount: offer.amount,
            currency: offer.currency,
            url: offer.url,
            read_at: readAt,
          })),
        )
        .onConflict((oc) => oc.columns(['book_id', 'source', 'country', 'kind']).doNothing())
        .execute();
    }
    return true;
  });
}

/** A read that failed or was refused: the lease stays until `retryAt`, so nobody asks before then. */
export async function deferOfferRead(
  db: Db,
  claim: Pick<OfferClaim, 'bookId' | 'source' | 'country' | 'owner'>,
  retryAt: number,
  error: string,
): Promise<void> {
  await db
    .updateTable('offer_reads')
    .set({ lease_until: retryAt, last_error: error.slice(0, 200) })
    .where('book_id', '=', claim.bookId)
    .where('source', '=', claim.source)
    .where('country', '=', claim.country)
    .where('lease_owner', '=', claim.owner)
    .execute();
}

/** The admin's offer switches live in one `settings` row as JSON (migration 0009's table). */
const SETTINGS_KEY = 'offer-sources';

/** Sources an admin switched off. */
export async function disabledOfferSources(db: Db): Promise<OfferSource[]> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  if (!row) return [];
  try {
    const value = JSON.parse(row.value) as { disabled?: unknown };
    return Array.isArray(value.disabled)
      ? value.disabled.filter((item): item is OfferSource => typeof item === 'string' && SOURCES.has(item))
      : [];
  } catch {
    return [];
  }
}

export async function writeDisabledOfferSources(db: Db, disabled: readonly OfferSource[]): Promise<void> {
  const text = JSON.stringify({ disabled });
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
    .execute();
}
