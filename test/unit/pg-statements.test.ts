import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isLostPreparedStatement,
  isStalePreparedStatement,
  StatementNames,
} from '../../src/store/pg-statements.js';

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
    assert.equal(names.size, 2);
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
    const stale = Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });
    assert.equal(isStalePreparedStatement(stale), true);
    const other = Object.assign(new Error('relation "a" does not exist'), { code: '42P01' });
    assert.equal(isStalePreparedStatement(other), false);
    assert.equal(isStalePreparedStatement('cached plan must not change result type'), false);
    const lost = Object.assign(new Error('prepared statement "booklink_3" does not exist'), {
      code: '26000',
    });
    assert.equal(isLostPreparedStatement(lost), true);
    const twice = Object.assign(new Error('prepared statement "booklink_3" already exists'), {
      code: '42P05',
    });
    assert.equal(isLostPreparedStatement(twice), true);
    assert.equal(isLostPreparedStatement(stale), false);
  });
});
