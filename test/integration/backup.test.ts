import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { addCatalogEntry } from '../support/factories.js';

function booklink(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
}

describe('booklink backup [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-backup-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a SQLite copy that opens with the same rows, and refuses to overwrite without --force', async () => {
    const source = openStore(`sqlite:${join(dir, 'live.db')}`);
    await migrateToLatest(source);
    await addCatalogEntry(source, {
      isbn13: '9780547928227',
      title: 'The Hobbit',
      authors: ['J.R.R. Tolkien'],
    });
    await source.close();

    const target = join(dir, 'copy.db');
    const env = { DATABASE_URL: `sqlite:${join(dir, 'live.db')}` };
    const first = booklink(['backup', target], env);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /backup written/);

    const copy = openStore(`sqlite:${target}`);
    const rows = await copy.db.selectFrom('catalog_entries').select('title').execute();
    await copy.close();
    assert.deepEqual(rows, [{ title: 'The Hobbit' }]);

    const again = booklink(['backup', target], env);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /--force/);
    assert.equal(booklink(['backup', target, '--force'], env).status, 0);
  });
});
