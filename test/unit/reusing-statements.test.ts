import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { reusingStatements } from '../../src/store/db.js';

/** The prepared-statement cache Kysely's SQLite driver goes through (src/store/db.ts). */
describe('prepared statements kept by SQL text', () => {
  const connection = () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (k text primary key, v text)');
    return sqlite;
  };

  it('reuses a statement for the same text, and forgets the least recently used beyond its bound', () => {
    const cache = reusingStatements(connection(), 2);
    const a = cache.prepare('select v from t where k = ?');
    assert.equal(cache.prepare('select v from t where k = ?'), a);
    cache.prepare('select k from t where v = ?');
    cache.prepare('select count(*) from t');
    assert.notEqual(cache.prepare('select v from t where k = ?'), a);
  });

  it('never keeps the long texts of bulk `in` lists, whose compiled programs weigh hundreds of kilobytes', () => {
    const cache = reusingStatements(connection());
    const long = `select v from t where k in (${Array.from({ length: 5000 }, () => '?').join(', ')})`;
    const first = cache.prepare(long);
    assert.notEqual(cache.prepare(long), first);
  });

  it('builds the same row objects as better-sqlite3: every column by name, a repeated name keeping its last value', () => {
    const sqlite = connection();
    sqlite.exec("insert into t values ('a', 'one'), ('b', null)");
    const cache = reusingStatements(sqlite);
    const text = "select k, v, length(k) as n, x'00ff' as bytes, 1.5 as half, k as v from t order by k";
    const own = sqlite.prepare(text).all();
    const kept = cache.prepare(text);
    assert.deepEqual(kept.all([]), own);
    assert.deepEqual(kept.all([]), [
      { k: 'a', v: 'a', n: 1, bytes: Buffer.from([0, 255]), half: 1.5 },
      { k: 'b', v: 'b', n: 1, bytes: Buffer.from([0, 255]), half: 1.5 },
    ]);
    assert.deepEqual([...kept.iterate([])], own);
    assert.deepEqual(cache.prepare('select v from t where k = ?').all(['a']), [{ v: 'one' }]);
  });

  it('reads a kept `select *` with the columns a schema change added since', () => {
    const sqlite = connection();
    sqlite.exec("insert into t values ('a', 'one')");
    const cache = reusingStatements(sqlite);
    assert.deepEqual(cache.prepare('select * from t').all([]), [{ k: 'a', v: 'one' }]);
    sqlite.exec("alter table t add column w text default 'new'");
    assert.deepEqual(cache.prepare('select * from t').all([]), [{ k: 'a', v: 'one', w: 'new' }]);
  });

  it('runs writers as before', () => {
    const cache = reusingStatements(connection());
    const insert = cache.prepare('insert into t (k, v) values (?, ?)');
    assert.equal(insert.reader, false);
    assert.equal(insert.run(['a', 'one']).changes, 1);
    assert.deepEqual(cache.prepare('insert into t (k, v) values (?, ?) returning k').all(['b', 'two']), [
      { k: 'b' },
    ]);
  });
});
