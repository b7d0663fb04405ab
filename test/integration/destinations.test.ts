import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Kysely } from 'kysely';
import { DESTINATION_GROUPS } from '../../src/domain/groups.js';
import { buildDestinationUrl, isAllowedRedirect, templateProblems } from '../../src/domain/links.js';
import {
  bookLinksForBook,
  cachedActiveDestinations,
  findDestination,
  invalidateDestinationCache,
  listActiveDestinations,
  listAllDestinations,
  overridesForBook,
} from '../../src/store/destinations.js';
import type { Database } from '../../src/store/schema.js';
import { describeEachDialect } from '../support/databases.js';

const typicalBook = {
  title: 'Pride and Prejudice',
  authors: ['Jane Austen'],
  isbn13: '9780141439518',
  isbn10: '0141439513',
  identifiers: {
    gutenberg: '1342',
    ia: 'prideprejudice00aust',
    standard_ebooks: 'jane-austen/pride-and-prejudice',
    librivox: 'pride-and-prejudice-by-jane-austen',
    ol_edition: 'OL7353617M',
    ol_work: 'OL66554W',
    google_volume: 's1gVAAAAYAAJ',
    apple_books: '395534451',
    apple_audiobook: '1440730519',
  },
};

async function createBook(db: Kysely<Database>, slug: string): Promise<number> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('books')
    .values({ slug, title: 'A book', authors: '[]', popularity: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

describeEachDialect('destinations', (context) => {
  it('seeds at least 25 destinations across all six groups with valid templates', async () => {
    const all = await listAllDestinations(context.store().db);
    assert.ok(all.length >= 25, `only ${all.length} destinations seeded`);
    assert.deepEqual([...new Set(all.map((d) => d.group))].sort(), [...DESTINATION_GROUPS].sort());
    for (const destination of all) {
      assert.deepEqual(templateProblems(destination.urlTemplate, destination.group), [], destination.slug);
      assert.match(destination.baseUrl, /^https:\/\//, destination.slug);
      assert.match(destination.brandColor, /^#[0-9A-F]{6}$/i, destination.slug);
    }
    assert.equal(all.find((d) => d.slug === 'amazon')?.affiliateParam, 'tag');
  });

  it('renders a valid https URL on an allowed host for a typical book from every seeded template', async () => {
    for (const destination of await listAllDestinations(context.store().db)) {
      for (const options of [{}, { affiliateTags: { [destination.slug]: 'op-tag' } }]) {
        const url = buildDestinationUrl(destination, typicalBook, options);
        assert.ok(url, `${destination.slug} gave no link`);
        assert.equal(new URL(url).protocol, 'https:', destination.slug);
        assert.ok(isAllowedRedirect(url, destination), `${destination.slug}: ${url} is not on its own host`);
      }
    }
  });

  it('lists only active destinations and finds them by slug or alias', async () => {
    const { db } = context.store();
    const active = await listActiveDestinations(db);
    assert.ok(active.every((d) => d.isActive));
    // Regional stores are on, each for its own countries only (migration 0026).
    assert.deepEqual(active.find((d) => d.slug === 'waterstones')?.countries, ['GB', 'IE']);
    assert.deepEqual(active.find((d) => d.slug === 'barnes-noble')?.countries, ['US']);
    assert.deepEqual(active.find((d) => d.slug === 'worldcat')?.countries, []);
    assert.equal((await findDestination(db, 'amazon'))?.displayName, 'Amazon');
    assert.equal((await findDestination(db, 'BN'))?.slug, 'barnes-noble');
    assert.equal(await findDestination(db, 'no-such-store'), null);
  });

  it('caches the active list until invalidated', async () => {
    const { db } = context.store();
    invalidateDestinationCache(db);
    const first = await cachedActiveDestinations(db);
    await db.updateTable('destinations').set({ is_active: 0 }).where('slug', '=', 'walmart').execute();
    assert.ok(
      (await cachedActiveDestinations(db)).some((d) => d.slug === 'walmart'),
      'still cached',
    );
    invalidateDestinationCache(db);
    const fresh = await cachedActiveDestinations(db);
    assert.equal(fresh.length, first.length - 1);
    const expired = await cachedActiveDestinations(db, Date.now() + 61_000);
    assert.notEqual(expired, fresh, 'a stale entry is reloaded after the TTL');
    await db.updateTable('destinations').set({ is_active: 1 }).where('slug', '=', 'walmart').execute();
    invalidateDestinationCache(db);
  });

  it("maps a book's curated links and overrides", async () => {
    const { db } = context.store();
    const bookId = await createBook(db, `dest-book-${context.dialect}`);
    const amazon = await findDestination(db, 'amazon');
    assert.ok(amazon);
    await db
      .insertInto('book_destination_links')
      .values({
        book_id: bookId,
        destination_id: amazon.id,
        url: 'https://www.amazon.com/dp/X',
        label: 'Preorder',
        tagline: '',
        is_featured: 1,
        display_priority: 5,
        active_until: '2030-01-01',
        created_at: new Date().toISOString(),
      })
      .execute();
    await db
      .insertInto('link_overrides')
      .values({
        book_id: bookId,
        retailer_key: 'kobo',
        override_url: 'https://www.kobo.com/x',
        notes: '',
        created_at: new Date().toISOString(),
      })
      .execute();
    const [link] = await bookLinksForBook(db, bookId);
    assert.deepEqual(
      {
        destinationId: link?.destinationId,
        label: link?.label,
        featured: link?.featured,
        until: link?.activeUntil,
      },
      { destinationId: amazon.id, label: 'Preorder', featured: true, until: '2030-01-01' },
    );
    assert.deepEqual(await overridesForBook(db, bookId), [
      { retailerKey: 'kobo', overrideUrl: 'https://www.kobo.com/x' },
    ]);
  });
});
