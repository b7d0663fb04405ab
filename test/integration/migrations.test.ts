import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/store/migrate.js';
import { describeEachDialect } from '../support/databases.js';

describeEachDialect('migrations', (context) => {
  it('creates every table and is idempotent', async () => {
    const { db } = context.store();
    const again = await migrateToLatest(context.store());
    assert.deepEqual(again, [], 'a second run applies nothing');
    const rows = await db.selectFrom('books').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(rows.n), 0);
  });
});
