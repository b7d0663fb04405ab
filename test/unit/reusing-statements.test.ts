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
});
