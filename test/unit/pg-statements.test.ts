import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preparedStatementFailure, StatementNames } from '../../src/store/pg-statements.js';

/** The names PostgreSQL's statements are prepared under (src/store/pg-statements.ts). */
describe('PostgreSQL statement names', () => {
  it('gives a text one name, another text another, and none past its capacity', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('select 1 where $1 = 1', 1);
    assert.ok(first);
    assert.equal(names.nameOf('select 1 where $1 = 1', 1), first);
    const second = names.nameOf('select 2 where $1 = 1', 1);
    assert.ok(second);
    assert.notEqual(second, first);
    assert.equal(names.nameOf('select 3 where $1 = 1', 1), undefined);
    // The texts named before the capacity was reached keep their names.
    assert.equal(names.nameOf('select 2 where $1 = 1', 1), second);
  });

  it('never names a text without parameters, a long one, or one refused', () => {
    const names = new StatementNames();
    assert.equal(names.nameOf('create table a (x int); create table b (y int)', 0), undefined);
    const long = `select x from a where x in (${Array.from({ length: 3000 }, (_, i) => `$${i + 1}`).join(', ')})`;
    assert.equal(names.nameOf(long, 3000), undefined);
    const text = 'select * from a where x = $1';
    assert.ok(names.nameOf(text, 1));
    names.refuse(text);
    assert.equal(names.nameOf(text, 1), undefined);
  });

  it('tells a stale or a lost prepared statement from other errors', () => {
    const failure = (code: string, message: string) =>
      preparedStatementFailure(Object.assign(new Error(message), { code }));
    assert.equal(failure('0A000', 'cached plan must not change result type'), 'stale');
    assert.equal(failure('26000', 'prepared statement "booklink_3" does not exist'), 'lost');
    assert.equal(failure('42P05', 'prepared statement "booklink_3" already exists'), 'lost');
    assert.equal(failure('42P01', 'relation "a" does not exist'), null);
    assert.equal(preparedStatementFailure('cached plan must not change result type'), null);
  });
});
