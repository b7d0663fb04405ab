import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { postgresMatch } from '../../src/store/search/postgres.js';
import { createTestDatabase, postgresOrSkip, type TestDatabase } from '../support/databases.js';

/** Statements prepared by name on PostgreSQL (src/store/pg-statements.ts), through Kysely and a real server. */
describe('PostgreSQL prepared statements', async () => {
  if (!(await postgresOrSkip('its prepared statements'))) return;
  let database: TestDatabase;
  let store: Store;
  let unprepared: Store;
  before(async () => {
    database = await createTestDatabase('postgres');
    store = openStore({ databaseUrl: database.url });
    unprepared = openStore({ databaseUrl: database.url, databasePreparedStatements: false });
    await sql`create table shelf (id int primary key, title text)`.execute(store.db);
    await sql`insert into shelf values (1, 'Emma'), (2, 'Persuasion'), (3, 'Sanditon')`.execute(store.db);
  });
  after(async () => {
    await store.close();
    await unprepared.close();
    await database.drop();
  });

  /** How often the connection has run `text` as a prepared statement (0: never prepared it). */
  const runsOf = async (on: Store, run: (db: Store['db']) => Promise<unknown>, text: string) =>
    on.db.connection().execute(async (connection) => {
      await run(connection);
      await run(connection);
      const kept = await sql<{ plans: number }>`select generic_plans + custom_plans as plans
        from pg_prepared_statements where statement = ${text}`.execute(connection);
      return kept.rows.map((row) => Number(row.plans));
    });

  it('prepares a text with parameters once on a connection and runs it again without parsing it', async () => {
    const read = (db: Store['db']) => sql`select title from shelf where id = ${2}`.execute(db);
    const runs = await runsOf(store, read, 'select title from shelf where id = $1');
    assert.deepEqual(runs, [2]);
    const again = await sql<{ title: string }>`select title from shelf where id = ${3}`.execute(store.db);
    assert.deepEqual(again.rows, [{ title: 'Sanditon' }]);
  });

  it('prepares nothing when told not to', async () => {
    const read = (db: Store['db']) => sql`select title from shelf where id > ${0}`.execute(db);
    assert.deepEqual(await runsOf(unprepared, read, 'select title from shelf where id > $1'), []);
  });

  it('still runs several statements in one text without parameters (migrations do)', async () => {
    await sql`create table a_one (x int); create table a_two (y int)`.execute(store.db);
    const made = await sql<{ n: number }>`select count(*)::int as n from pg_tables
      where tablename in ('a_one', 'a_two')`.execute(store.db);
    assert.equal(made.rows[0]?.n, 2);
  });

  it('goes unnamed, and says so once, when the server loses the statements (a pooler would)', async (t) => {
    const warned = t.mock.method(console, 'warn', () => undefined);
    const pooled = openStore({ databaseUrl: database.url });
    try {
      const rows = await pooled.db.connection().execute(async (connection) => {
        const read = () =>
          sql<{ title: string }>`select title from shelf where id = ${2}`.execute(connection);
        await read();
        // As when a pooler hands the next transaction another server connection.
        await sql`deallocate all`.execute(connection);
        const answered = (await read()).rows;
        const fresh = (db: Store['db']) => sql`select id from shelf where title = ${'Emma'}`.execute(db);
        await fresh(connection);
        const kept = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(
          connection,
        );
        return { answered, kept: kept.rows[0]?.n };
      });
      assert.deepEqual(rows, { answered: [{ title: 'Persuasion' }], kept: 0 });
      assert.equal(warned.mock.callCount(), 1);
      assert.match(String(warned.mock.calls[0]?.arguments[0]), /DATABASE_PREPARED_STATEMENTS=off/);
    } finally {
      await pooled.close();
    }
  });

  it('answers a `select *` whose table another process changed, by running the text unnamed', async () => {
    const rows = await store.db.connection().execute(async (connection) => {
      const read = () =>
        sql<Record<string, unknown>>`select * from shelf where id = ${1}`.execute(connection);
      await read();
      // Another process's migration, on a connection of its own.
      await sql`alter table shelf add column shelved boolean not null default true`.execute(unprepared.db);
      return (await read()).rows;
    });
    assert.deepEqual(rows, [{ id: 1, title: 'Emma', shelved: true }]);
  });
});

/** The full-text statement of a search (src/store/search/postgres.ts), as PostgreSQL keeps its plan. */
describe('PostgreSQL full-text search statement', async () => {
  if (!(await postgresOrSkip('its full-text statement'))) return;
  let database: TestDatabase;
  let store: Store;
  before(async () => {
    database = await createTestDatabase('postgres');
    store = openStore({ databaseUrl: database.url });
    await migrateToLatest(store);
    const now = new Date().toISOString();
    await store.db
      .insertInto('catalog_entries')
      .values(
        // Enough other titles that the planner, which sees the words of a custom plan in the table's
        // statistics, estimates these few matches below its generic guess (half a per cent of the rows).
        [
          'Emma',
          'Persuasion',
          'Emma in Winter',
          ...Array.from({ length: 2000 }, (_, n) => `Volume ${n}`),
        ].map((title, n) => ({
          entry_key: `test:${n}`,
          source: 'test',
          title,
          authors: '["Jane Austen"]',
          identifiers: '{}',
          match_key: `${title.toLowerCase()}|austen`,
          popularity: 10 - n,
          updated_at: now,
        })),
      )
      .execute();
    await sql`analyze catalog_entries`.execute(store.db);
  });
  after(async () => {
    await store.close();
    await database.drop();
  });

  it('is planned once, generically, for every search of the fetch plan, and finds by the words', async () => {
    // Seen as a constant, two words found together are estimated below the generic guess, and
    // PostgreSQL planned such searches anew every time (seven custom plans of these eight).
    const queries = [
      ['emma', 'winter'],
      ['persuasion'],
      ['winter'],
      ['emma', 'winter'],
      ['persuasion'],
      ['winter'],
      ['emma'],
      ['persuasion'],
    ];
    const { found, plans } = await store.db.connection().execute(async (connection) => {
      const found: string[][] = [];
      for (const words of queries) {
        const retrieved = await postgresMatch(
          connection,
          words.map((word) => [word]),
          'and',
          10,
          'fetch',
          null,
        );
        found.push(retrieved.entries.map((entry) => entry.title));
      }
      const plans = await sql<{ generic: number; custom: number }>`select generic_plans as generic,
        custom_plans as custom from pg_prepared_statements where statement like 'with matched%'`.execute(
        connection,
      );
      return { found, plans: plans.rows };
    });
    assert.deepEqual(found.slice(0, 3), [['Emma in Winter'], ['Persuasion'], ['Emma in Winter']]);
    assert.deepEqual(found.at(-2), ['Emma', 'Emma in Winter']);
    assert.equal(plans.length, 1, 'one statement text for every search');
    // PostgreSQL tries five custom plans, then keeps the generic one when it costs no more.
    assert.deepEqual(
      plans.map((plan) => [Number(plan.custom), Number(plan.generic)]),
      [[5, queries.length - 5]],
    );
  });
});
