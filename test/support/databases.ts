import { randomBytes } from 'node:crypto';
import { after, before, describe } from 'node:test';
import pg from 'pg';
import { type Dialect, openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';

/**
 * Runs a block of tests once per database. Each run gets a fresh, migrated database of its own:
 * a temporary SQLite file, or a new PostgreSQL database created for it and dropped afterwards.
 *
 * Without a reachable PostgreSQL the PostgreSQL half is skipped with a loud warning; with
 * BOOKLINK_REQUIRE_ALL_BACKENDS=1 (set by .ci/run) it fails instead, so CI never skips silently.
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REQUIRE_ALL = process.env.BOOKLINK_REQUIRE_ALL_BACKENDS === '1';

let postgresReachable: Promise<boolean> | undefined;

/** Reachable within three tries of 5 s each: a loaded machine can take seconds to accept a connection. */
async function checkPostgres(): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await connectsOnce()) return true;
  }
  return false;
}

async function connectsOnce(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function postgresAvailable(): Promise<boolean> {
  postgresReachable ??= checkPostgres();
  return postgresReachable;
}

export interface TestDatabase {
  url: string;
  dialect: Dialect;
  drop(): Promise<void>;
}

/** Creates an empty database and returns its URL; `drop` removes it. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const name = `booklink_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (dialect === 'sqlite') {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'booklink-'));
    return {
      url: `sqlite:${join(dir, `${name}.db`)}`,
      dialect,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dialect,
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface DialectContext {
  dialect: Dialect;
  /** The migrated store of this run (valid inside tests and hooks). */
  store(): Store;
  url(): string;
}

/**
 * Whether PostgreSQL is there for `what`; when it is not, says loudly that `what` is skipped, or fails
 * where every backend is required (BOOKLINK_REQUIRE_ALL_BACKENDS=1, as CI runs).
 */
export async function postgresOrSkip(what: string): Promise<boolean> {
  if (await postgresAvailable()) return true;
  const message = `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}: SKIPPING ${what}`;
  if (REQUIRE_ALL) throw new Error(message);
  console.warn(`\n!!! ${message}\n`);
  return false;
}

export function describeEachDialect(name: string, body: (context: DialectContext) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe(`${name} [${dialect}]`, async () => {
      if (dialect === 'postgres' && !(await postgresOrSkip(`the PostgreSQL run of "${name}"`))) return;
      let database: TestDatabase | undefined;
      let store: Store | undefined;
      before(async () => {
        database = await createTestDatabase(dialect);
        store = openStore(database.url);
        await migrateToLatest(store);
      });
      body({
        dialect,
        store: () => {
          if (!store) throw new Error('store used outside a test');
          return store;
        },
        url: () => {
          if (!database) throw new Error('database used outside a test');
          return database.url;
        },
      });
      // Registered after the body's hooks so it runs after them: apps close before their database.
      after(async () => {
        await store?.close();
        await database?.drop();
      });
    });
  }
}
