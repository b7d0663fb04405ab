import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Dialect, openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';

/** A fresh, migrated database for one evaluation or benchmark run; `drop` removes it. */
export interface ScratchDatabase {
  dialect: Dialect;
  store: Store;
  drop(): Promise<void>;
}

export const POSTGRES_ADMIN_URL =
  process.env.EVAL_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function scratchDatabase(dialect: Dialect, label: string): Promise<ScratchDatabase> {
  // Letters, digits and underscores only: the name is part of a CREATE DATABASE statement.
  const name = `booklink_${label.replace(/\W/g, '')}_${process.pid}_${randomBytes(3).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `booklink-${label}-`));
    const store = openStore(`sqlite:${join(dir, 'eval.db')}`);
    await migrateToLatest(store);
    return {
      dialect,
      store,
      drop: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const store = openStore(url.toString());
  await migrateToLatest(store);
  return {
    dialect,
    store,
    drop: async () => {
      await store.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}
