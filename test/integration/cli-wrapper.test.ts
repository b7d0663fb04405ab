import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { describeEachDialect } from '../support/databases.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BOOKLINK = join(ROOT, 'bin', 'booklink.js');

/**
 * `bin/booklink.js`, the command operators run: it starts a command that needs V8 flags of its own (an
 * import) or the TypeScript source (a checkout without a build) in a child process, which must look
 * like the command itself: its output, its exit status, and a stop signal reaching it.
 */
describeEachDialect('the booklink command', (context) => {
  const env = () => ({ ...process.env, DATABASE_URL: context.url(), CLICK_WAL_DIR: 'off' });

  it('imports through its child process and passes the exit status on', async () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BOOKLINK, ...args], { cwd: ROOT, env: env(), encoding: 'utf8' });
    const usage = run(['import-openlibrary']);
    assert.equal(usage.status, 2, usage.stderr);
    assert.match(usage.stderr, /--editions/);
    const imported = run(['import', join('test', 'fixtures', 'import', 'ol-editions.txt')]);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /Imported ol-editions\.txt/);
    assert.match(imported.stderr, /^Refreshing the search statistics \(1 step\)\n {2}search statistics: /m);
    const entries = await context
      .store()
      .db.selectFrom('catalog_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.ok(Number(entries.n) > 0);
  });

  it('passes a stop signal on to the command it started, and exits as it does', async (t) => {
    const wrapper = spawn(process.execPath, [BOOKLINK, 'serve'], {
      cwd: ROOT,
      env: { ...env(), PORT: '0', HOST: '127.0.0.1', BASE_URL: 'http://booklink.test', PROVIDERS: 'local' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own, so a failed test can stop whatever the wrapper left running.
      detached: true,
    });
    const exit = once(wrapper, 'exit');
    t.after(() => stopGroup(wrapper.pid));
    let output = '';
    await new Promise<void>((listening, failed) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Booklink listening on/.test(output)) listening();
      };
      wrapper.stdout.on('data', onData);
      wrapper.stderr.on('data', onData);
      void exit.then(() => failed(new Error(`exited before listening:\n${output}`)));
    });
    wrapper.kill('SIGTERM');
    const [code, signal] = await exit;
    // A wrapper that did not forward would die of the signal itself, leaving its server running.
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, output);
    assert.match(output, /shutting down/);
  });
});

/** Stops a process group if anything of it is left (nothing, when the wrapper did its job). */
function stopGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
