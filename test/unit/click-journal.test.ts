import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ClickJournal, readJournal } from '../../src/services/click-journal.js';

const silent = { error: () => undefined };

describe('click journal', () => {
  const dirs: string[] = [];
  const freshDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'booklink-journal-'));
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  for (const sync of ['interval', 'always'] as const) {
    it(`${sync}: a click's line is in the file once its append resolves, in order, across turns`, async () => {
      const dir = await freshDir();
      const journal = await ClickJournal.open<{ n: number }>(dir, (record) => record, silent, sync);
      const [name] = await readdir(dir);
      const path = join(dir, name ?? '');
      // One turn's appends, then a second turn's: each resolves only when its line is written.
      const first = [1, 2, 3].map((n) => journal.append({ n }));
      await Promise.all(first.map((entry) => entry.durable));
      const lines = (await readFile(join(path, '1.log'), 'utf8')).trim().split('\n');
      assert.deepEqual(lines, ['{"s":1,"c":{"n":1}}', '{"s":2,"c":{"n":2}}', '{"s":3,"c":{"n":3}}']);
      const second = [4, 5].map((n) => journal.append({ n }));
      assert.deepEqual(
        second.map((entry) => entry.seq),
        [4, 5],
      );
      await Promise.all(second.map((entry) => entry.durable));
      const entries = await readJournal(path);
      assert.deepEqual(
        entries.map((entry) => entry.record),
        [1, 2, 3, 4, 5].map((n) => ({ n })),
      );
      await journal.close(false);
      assert.equal((await readJournal(path)).length, 5, 'kept on close without remove');
    });
  }
});
