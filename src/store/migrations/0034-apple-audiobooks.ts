import type { Generated, Kysely } from 'kysely';
import type { Dialect } from '../db.js';

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

type Tables = {
  destinations: {
    id: Generated<number>;
    slug: string;
    display_name: string;
    short_name: string;
    description: string;
    group_name: string;
    url_template: string;
    base_url: string;
    brand_color: string;
    display_priority: number;
    is_active: number;
    is_public: number;
    affiliate_param: string;
    countries: string;
    created_at: string;
    updated_at: string;
  };
  destination_aliases: { old_slug: string; destination_id: number };
  destination_storefronts: {
    destination_id: number;
    country: string;
    base_url: string;
    url_template: string;
  };
};

const SLUG = 'apple-books-audiobooks';
const BASE = 'https://books.apple.com';

/** The ebook destination's storefront countries (0026); the US store is the destination's own. */
const COUNTRIES = ['GB', 'IE', 'CA', 'AU', 'NZ', 'DE', 'AT', 'CH', 'FR', 'BE', 'IT', 'ES', 'NL', 'JP', 'IN'];

const template = (storefront: string) => `${BASE}/${storefront}/audiobook/id{apple_audiobook}`;

export async function appleAudiobooksMigration(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const seedDb = db.withTables<Tables>();
  const slugTaken = await seedDb
    .selectFrom('destinations')
    .select('id')
    .where('slug', '=', SLUG)
    .executeTakeFirst();
  const aliasTaken = await seedDb
    .selectFrom('destination_aliases')
    .select('destination_id')
    .where('old_slug', '=', SLUG)
    .executeTakeFirst();
  if (slugTaken || aliasTaken) return;
  const now = new Date().toISOString();
  await seedDb
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
    .execute();
  const inserted = await seedDb
    .selectFrom('destinations')
    .select('id')
    .where('slug', '=', SLUG)
    .executeTakeFirstOrThrow();
  await seedDb
    .insertInto('destination_storefronts')
    .values(
      COUNTRIES.map((country) => ({
        destination_id: Number(inserted.id),
        country,
        base_url: BASE,
        url_template: template(country.toLowerCase()),
      })),
    )
    .execute();
}
