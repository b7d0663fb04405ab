import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { redisReachable } from '../../src/services/redis.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  createTestDatabase,
  postgresAvailable,
  REQUIRE_ALL,
  type TestDatabase,
} from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

/**
 * Issue 47's "done when": two instances on one PostgreSQL and one Redis read each offer once (the
 * lease row in `offer_reads`), and together stay within the offer budget (counted in Redis).
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GOOGLE_BUDGET = 3;
const BOOKS = ['9780007525584', '9780007525591', '9780007525607', '9780007525614', '9780007525621'];

describe('offers read by two instances on PostgreSQL and Redis', async () => {
  if (!(await postgresAvailable()) || !(await redisReachable(REDIS_URL))) {
    const message = 'PostgreSQL or Redis is not reachable: SKIPPING the two-instance offers test';
    if (REQUIRE_ALL) throw new Error(message);
    console.warn(`\n!!! ${message}\n`);
    return;
  }
  let database: TestDatabase;
  let stores: Store[] = [];
  let apps: TestApp[] = [];
  let fake: FakeProviders;

  before(async () => {
    database = await createTestDatabase('postgres');
    stores = [openStore(database.url), openStore(database.url)];
    await migrateToLatest(stores[0] as Store);
    fake = await startFakeProviders();
    const env = {
      ...fake.env,
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: `bltest-offers-${process.pid}-${randomBytes(3).toString('hex')}:`,
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
      OFFER_SOURCES: 'googlebooks,itunes,openlibrary',
      OFFER_BUDGET_GOOGLEBOOKS: `${GOOGLE_BUDGET}/min`,
      OFFER_BUDGET_ITUNES: 'off',
      OFFER_BUDGET_OPENLIBRARY: 'off',
    };
    apps = await Promise.all(stores.map((store) => startTestApp(store, env)));
  });
  after(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await fake.close();
    await database.drop();
  });

  it('each offer is asked for once, and Google no more often than its budget', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const slugs: string[] = [];
    for (const [i, isbn13] of BOOKS.entries()) {
      const title = `Shared Offer ${i}`;
      fake.addBook({
        isbn13,
        title,
        offers: {
          google: { GB: { saleability: 'FOR_SALE', retail: [4 + i, 'GBP'] } },
          itunes: { GB: { price: 5 + i, currency: 'GBP', formattedPrice: `£${5 + i}.00` } },
          openlibrary: 'checked out',
        },
      });
      await addCatalogEntry(stores[0] as Store, { isbn13, title });
      const created = await a.get(`/isbn/${isbn13}`);
      slugs.push((created.headers.get('location') ?? '').replace('/book/', ''));
    }
    const before = {
      google: fake.requests('googlebooks').filter((path) => path.includes('country=GB')).length,
      itunes: fake.requests('itunes').filter((path) => path.includes('country=gb')).length,
    };
    // Both instances visit every book at once, three times over.
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        slugs.flatMap((slug) => [a.get(`/book/${slug}?country=GB`), b.get(`/book/${slug}?country=GB`)]),
      );
    }
    const db = (stores[0] as Store).db;
    // Every iTunes and Open Library offer read; Google's past its budget deferred, not asked.
    await eventually(async () => {
      const rows = await db.selectFrom('offer_reads').select(['source', 'read_at', 'last_error']).execute();
      const done = rows.filter((row) => row.read_at !== null || row.last_error !== null);
      return done.length === BOOKS.length * 3 ? rows : undefined;
    }, 20_000);
    const google = fake
      .requests('googlebooks')
      .filter((path) => path.includes('country=GB'))
      .slice(before.google);
    const itunes = fake
      .requests('itunes')
      .filter((path) => path.includes('country=gb'))
      .slice(before.itunes);
    const readApi = fake.requests('openlibrary').filter((path) => path.includes('/api/volumes/brief/isbn/'));
    for (const isbn13 of BOOKS) {
      assert.equal(
        itunes.filter((path) => path.includes(isbn13)).length,
        1,
        `iTunes asked once for ${isbn13}`,
      );
      assert.equal(
        readApi.filter((path) => path.includes(isbn13)).length,
        1,
        `Open Library once for ${isbn13}`,
      );
      assert.ok(
        google.filter((path) => path.includes(isbn13)).length <= 1,
        `Google at most once for ${isbn13}`,
      );
    }
    // Windows are aligned to the minute: a run across :00 may use two of them.
    const windows = new Set(
      fake
        .requestTimes('googlebooks')
        .slice(-google.length)
        .map((at) => Math.floor(at / 60_000)),
    );
    assert.ok(google.length <= GOOGLE_BUDGET * windows.size, `${google.length} Google requests`);
    assert.ok(google.length >= 1);
    const refused = await db
      .selectFrom('offer_reads')
      .select('last_error')
      .where('source', '=', 'googlebooks')
      .where('last_error', '=', 'budget_spent')
      .execute();
    assert.equal(refused.length, BOOKS.length - google.length, 'the rest wait for the next window');
  });
});
