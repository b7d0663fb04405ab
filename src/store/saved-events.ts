import type { Generated } from 'kysely';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

// Migration 0006's table, merged into the shared Database type from here.
declare module './schema.js' {
  interface Database {
    saved_events: SavedEventTable;
  }
}

export interface SavedEventTable {
  id: Generated<number>;
  event_type: string;
  collection_size: number;
  book_slug: string | null;
  view_mode: string | null;
  client_token: string | null;
  created_at: string;
}

export interface SavedEvent {
  eventType: string;
  collectionSize: number;
  bookSlug: string | null;
  viewMode: string | null;
  clientToken: string | null;
}

export async function insertSavedEvent(db: Db, event: SavedEvent): Promise<void> {
  await db
    .insertInto('saved_events')
    .values({
      event_type: event.eventType,
      collection_size: event.collectionSize,
      book_slug: event.bookSlug,
      view_mode: event.viewMode,
      client_token: event.clientToken,
      created_at: nowIso(),
    })
    .execute();
}
