import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTerminalProgress, importCatalogFile } from '../../src/catalog/import/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../support/databases.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * Issue 45, point 7: a new user's first run. The example catalog the README imports fills the home
 * page and ranks by its `rank` column; the import says where its ranking comes from; the server's
 * start says where the site and the admin area are.
 */
const EXAMPLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'books.csv');

/** A terminal-progress stream that keeps what it is told. */
function captured(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

describeEachDialect('the example catalog', (context) => {
  let t: TestApp;
  const told = captured();
  before(async () => {
    const summary = await importCatalogFile(context.store(), EXAMPLE, {
      coversBaseUrl: 'https://covers.openlibrary.org',
      ...createTerminalProgress({ stream: told.stream }),
    });
    assert.deepEqual(summary.skipped, {});
    assert.equal(summary.imported, 45);
    t = await startTestApp(context.store());
  });
  after(() => t.close());

  it('says its ranking comes from the rank column', () => {
    assert.match(told.text(), /ranking: popularity from the "rank" column \(1 the most popular\)/);
  });

  it('ranks The Hunger Games first for "hunger"', async () => {
    const body = (await (await t.get('/api/v1/search?q=hunger')).json()) as {
      results: { title: string }[];
    };
    assert.equal(body.results[0]?.title, 'The Hunger Games');
  });

  it('fills the home page with its most popular books, the first ranked first', async () => {
    const home = await (await t.get('/')).text();
    const linked = [...home.matchAll(/href="\/isbn\/(\d{13})"/g)].map((match) => match[1]);
    assert.ok(linked.length >= 8, `books on the home page: ${linked.length}`);
    assert.equal(linked[0], '9780439023481');
  });
});

describe('a CSV without a popularity column', () => {
  it('says the entries are ranked by their words alone', async () => {
    const database = await createTestDatabase('sqlite');
    const dir = mkdtempSync(join(tmpdir(), 'booklink-first-run-'));
    const { openStore } = await import('../../src/store/db.js');
    const { migrateToLatest } = await import('../../src/store/migrate.js');
    const store = openStore(database.url);
    try {
      await migrateToLatest(store);
      const file = join(dir, 'plain.csv');
      writeFileSync(file, 'isbn13,title,authors\n9780141439518,Pride and Prejudice,Jane Austen\n');
      const told = captured();
      await importCatalogFile(store, file, {
        coversBaseUrl: 'https://covers.openlibrary.org',
        ...createTerminalProgress({ stream: told.stream }),
      });
      assert.match(told.text(), /ranking: no popularity column \(ratings_count, popularity, rank…\)/);
    } finally {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the start of `booklink serve`', () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  before(async () => {
    database = await createTestDatabase('sqlite');
  });
  after(async () => {
    server?.child.kill('SIGKILL');
    await database.drop();
  });

  it('says where the site and the admin area are, and that the first account was created', async () => {
    server = await startServerProcess({
      DATABASE_URL: database.url,
      CLICK_WAL_DIR: 'off',
      ADMIN_EMAIL: 'owner@example.org',
      ADMIN_PASSWORD: 'a long enough passphrase',
    });
    assert.match(
      server.output(),
      /Booklink listening on http:\/\/127\.0\.0\.1:\d+: the site at http:\/\/booklink\.test, the admin area at http:\/\/booklink\.test\/admin, account owner@example\.org created/,
    );
    server.child.kill('SIGTERM');
    await server.exit;
    server = await startServerProcess({ DATABASE_URL: database.url, CLICK_WAL_DIR: 'off' });
    assert.match(server.output(), /the admin area at http:\/\/booklink\.test\/admin"/);
    server.child.kill('SIGTERM');
    await server.exit;
    server = undefined;
  });
});
