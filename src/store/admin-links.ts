import type { Selectable } from 'kysely';
import { nowIso } from './db.js';
import type { BookDestinationLinkTable, Db } from './schema.js';

export interface LinkFields {
  url: string;
  label: string;
  tagline: string;
  isFeatured: boolean;
  displayPriority: number;
  activeFrom: string | null;
  activeUntil: string | null;
}

export interface LinkRecord extends LinkFields {
  id: number;
  bookId: number;
  destinationId: number;
  bookSlug: string;
  bookTitle: string;
  destinationSlug: string;
  destinationName: string;
}

type LinkRow = Selectable<BookDestinationLinkTable> & {
  book_slug: string;
  book_title: string;
  destination_slug: string;
  destination_name: string;
};

function rowToLink(row: LinkRow): LinkRecord {
  return {
    id: Number(row.id),
    bookId: Number(row.book_id),
    destinationId: Number(row.destination_id),
    url: row.url,
    label: row.label,
    tagline: row.tagline,
    isFeatured: Number(row.is_featured) === 1,
    displayPriority: Number(row.display_priority),
    activeFrom: row.active_from,
    activeUntil: row.active_until,
    bookSlug: row.book_slug,
    bookTitle: row.book_title,
    destinationSlug: row.destination_slug,
    destinationName: row.destination_name,
  };
}

function linksQuery(db: Db) {
  return db
    .selectFrom('book_destination_links as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .innerJoin('destinations as d', 'd.id', 'l.destination_id')
    .selectAll('l')
    .select([
      'b.slug as book_slug',
      'b.title as book_title',
      'd.slug as destination_slug',
      'd.display_name as destination_name',
    ]);
}

export async function linksOfBook(db: Db, bookId: number): Promise<LinkRecord[]> {
  return (await linksQuery(db).where('l.book_id', '=', bookId).orderBy('l.id').execute()).map(rowToLink);
}

export async function linksOfDestination(db: Db, destinationId: number, limit = 500): Promise<LinkRecord[]> {
  const rows = await linksQuery(db)
    .where('l.destination_id', '=', destinationId)
    .orderBy('l.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(rowToLink);
}

export async function findLink(db: Db, id: number): Promise<LinkRecord | null> {
  const row = await linksQuery(db).where('l.id', '=', id).executeTakeFirst();
  return row ? rowToLink(row) : null;
}

const columns = (fields: LinkFields) => ({
  url: fields.url,
  label: fields.label,
  tagline: fields.tagline,
  is_featured: fields.isFeatured ? 1 : 0,
  display_priority: fields.displayPriority,
  active_from: fields.activeFrom,
  active_until: fields.activeUntil,
});

export async function insertLink(
  db: Db,
  bookId: number,
  destinationId: number,
  fields: LinkFields,
): Promise<number> {
  const row = await db
    .insertInto('book_destination_links')
    .values({ book_id: bookId, destination_id: destinationId, ...columns(fields), created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateLink(db: Db, id: number, fields: LinkFields): Promise<void> {
  await db.updateTable('book_destination_links').set(columns(fields)).where('id', '=', id).execute();
}

export async function deleteLink(db: Db, id: number): Promise<void> {
  await db.deleteFrom('book_destination_links').where('id', '=', id).execute();
}
