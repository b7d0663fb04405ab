import { bookLabels } from '../../store/admin-search-stats.js';
import { bookClicksByDestination, bookVisitTotals } from '../../store/affiliate-tags.js';
import { addDays, clickCounts, dayOf } from '../../store/analytics.js';
import type { Db } from '../../store/schema.js';
import { type StoreClicks, storeClicks } from './affiliate.js';
import { withSnapshot } from './analytics.js';
import { csvText } from './csv.js';

/** One book's readers, clicks and click-through in a period. */
export interface BookFigures {
  bookId: number;
  title: string;
  slug: string | null;
  /** Visits of its page by readers (bots and link previews not counted). */
  visits: number;
  clicks: number;
  /** Clicks per reader visit; null without visits. */
  clickThrough: number | null;
}

export const clickThrough = (clicks: number, visits: number): number | null =>
  visits > 0 ? clicks / visits : null;

export interface EarningsModel {
  days: number;
  stores: StoreClicks[];
  books: BookFigures[];
}

/** Readers' visits, clicks and click-through per book, the most visited first. */
export async function booksFigures(db: Db, days: number, now = new Date()): Promise<BookFigures[]> {
  const { clicks, from } = await withSnapshot(db, days, now, async (trx, { range, state }) => ({
    clicks: await clickCounts(trx, 'book', range, state, now, 100_000),
    from: range.from,
  }));
  const visits = await bookVisitTotals(db, from);
  const clicksByBook = new Map(clicks.map((c) => [Number(c.key), c.clicks]));
  const ids = [...new Set([...visits.keys(), ...clicksByBook.keys()])].filter(Number.isInteger);
  const labels = await bookLabels(db, ids);
  return ids
    .map((bookId) => {
      const v = visits.get(bookId) ?? 0;
      const c = clicksByBook.get(bookId) ?? 0;
      const label = labels.get(bookId);
      return {
        bookId,
        title: label?.title ?? `Book ${bookId}`,
        slug: label?.slug ?? null,
        visits: v,
        clicks: c,
        clickThrough: clickThrough(c, v),
      };
    })
    .sort((a, b) => b.visits - a.visits || b.clicks - a.clicks || a.bookId - b.bookId);
}

/** One book's own figures for its admin page. */
export interface OneBookFigures {
  days: number;
  visits: number;
  clicks: number;
  clickThrough: number | null;
  byDestination: Array<{ destinationId: number; name: string; clicks: number }>;
}

export async function oneBookFigures(
  db: Db,
  bookId: number,
  days: number,
  now = new Date(),
): Promise<OneBookFigures> {
  const fromDay = addDays(dayOf(now), 1 - days);
  const [visits, byDestination] = await Promise.all([
    bookVisitTotals(db, fromDay, [bookId]),
    bookClicksByDestination(db, bookId, `${fromDay}T00:00:00.000Z`),
  ]);
  const v = visits.get(bookId) ?? 0;
  const c = byDestination.reduce((sum, row) => sum + row.clicks, 0);
  return { days, visits: v, clicks: c, clickThrough: clickThrough(c, v), byDestination };
}

const ratio = (value: number | null) => (value === null ? '' : value.toFixed(4));

/** What earns: clicks per store by whose tag they carried, and each book's click-through. */
export class AdminEarnings {
  constructor(private readonly db: Db) {}

  async model(days: number): Promise<EarningsModel> {
    // One after the other: on SQLite both snapshots would wait for the one connection anyway.
    const stores = await storeClicks(this.db, days);
    return { days, stores, books: await booksFigures(this.db, days) };
  }

  book(bookId: number, days = 30): Promise<OneBookFigures> {
    return oneBookFigures(this.db, bookId, days);
  }

  async storesCsv(days: number): Promise<string> {
    const stores = await storeClicks(this.db, days);
    return csvText(
      [
        'destination',
        'storefront',
        'name',
        'with_operator_tag',
        'with_partner_tag',
        'without_tag',
        'not_recorded',
      ],
      stores.map((s) => [
        s.destinationSlug,
        s.country ?? '',
        s.name,
        s.operator,
        s.partner,
        s.none,
        s.unknown,
      ]),
    );
  }

  async booksCsv(days: number): Promise<string> {
    const books = await booksFigures(this.db, days);
    return csvText(
      ['book_id', 'slug', 'title', 'reader_visits', 'clicks', 'click_through'],
      books.map((b) => [b.bookId, b.slug ?? '', b.title, b.visits, b.clicks, ratio(b.clickThrough)]),
    );
  }
}
