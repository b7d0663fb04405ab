import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';
// The ebook destination's storefront countries (0026); the US store is the destination's own.
import { APPLE_COUNTRIES, type Tables, takenSlugs } from './0026-destination-countries.js';

// Self-contained: the seed rows are written out here and never read from live model code, so this
// migration inserts the same destination forever. Operators edit it in the admin area afterwards.
//
// Apple Books sells audiobooks as products of their own, under their own ids
// (`https://books.apple.com/{cc}/audiobook/{slug}/id{n}`): the ebook destination's `apple_books` id
// never names one. This seeds the audiobook destination, linked by the audiobook's id
// (`apple_audiobook`), with a storefront in each country the ebook destination has one (0026). Like
// the ebook destination it has no search fallback (Apple runs no confirmed web search for books):
// a book without an audiobook id gets the button only from an iTunes offer, whose link the store gave.
// Insert or nothing: a destination (or a former slug) an operator already named so stays theirs.

const SLUG = 'apple-books-audiobooks';
const BASE = 'https://books.apple.com';

const template = (storefront: string) => `${BASE}/${storefront}/audiobook/id{apple_audiobook}`;

export async function appleAudiobooksMigration(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const seedDb = db.withTables<Tables>();
  if ((await takenSlugs(seedDb)).has(SLUG)) return;
  const now = new Date().toISOString();
  const inserted = await seedDb
    .insertInto('destinations')
    .values({
      slug: SLUG,
      display_name: 'Apple Books Audiobooks',
      short_name: 'Apple Books',
      description: '',
      group_name: 'audiobook',
      url_template: template('us'),
      base_url: BASE,
      brand_color: '#FB5C1A',
      display_priority: 65,
      is_active: 1,
      is_public: 1,
      affiliate_param: 'at',
      countries: '',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await seedDb
    .insertInto('destination_storefronts')
    .values(
      APPLE_COUNTRIES.map((country) => ({
        destination_id: Number(inserted.id),
        country,
        base_url: BASE,
        url_template: template(country.toLowerCase()),
      })),
    )
    .execute();
}
