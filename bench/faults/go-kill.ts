/**
 * kill -9 during a /go/ burst (issue 11): wrk (its own process) sends /go/ at full speed for `--seconds`,
 * the server gets SIGKILL at `--kill-at` seconds, restarts (replaying its click journal), and the
 * clicks table is compared with the number of 302s wrk received. Repeated `--runs` times.
 *   npx tsx bench/faults/go-kill.ts [--runs 3] [--seconds 10] [--kill-at 5] [--connections 10]
 * Lost = 302s received − click rows (must be 0). Rows beyond the 302s are clicks the server journaled
 * and answered whose answer the kill stopped before wrk read it (at most one per connection).
 */
import '../lib/help.js';
import { setTimeout as delay } from 'node:timers/promises';
import { bookDatabase, countClicks, createBook } from '../lib/fixtures.js';
import { machineFacts, option, startApp, withTempDir } from '../lib/harness.js';
import { BROWSER_HTML_HEADERS, wrk, wrkSummary } from '../lib/wrk.js';

const runs = option('runs', 3);
const seconds = option('seconds', 10);
const killAt = option('kill-at', 5);
const connections = option('connections', 10);

console.log(machineFacts());
let failed = false;
for (let run = 1; run <= runs; run++) {
  await withTempDir(async (dir) => {
    const databaseUrl = await bookDatabase(dir);
    const app = await startApp(databaseUrl);
    const slug = await createBook(app.url);
    const burst = wrk(`${app.url}/go/${slug}/amazon`, {
      connections,
      duration: seconds,
      headers: BROWSER_HTML_HEADERS,
      countStatuses: true,
      timeout: 5,
    });
    await delay(killAt * 1000);
    app.child.kill('SIGKILL');
    const result = await burst;
    const received = result.statuses['302'] ?? 0;
    // The restart replays the journal before it listens; a graceful stop then writes everything.
    const again = await startApp(databaseUrl);
    const code = await again.stop();
    const rows = await countClicks(databaseUrl);
    const lost = Math.max(0, received - rows);
    console.log(wrkSummary(`run ${run} /go/ burst, kill -9 at ${killAt} s`, result));
    console.log(
      `run ${run}: ${received} redirects received, ${rows} clicks after restart (restart exit ${code}): ` +
        `lost ${lost}, answered but unread ${rows - received + lost} — ${lost === 0 ? 'OK' : 'LOST CLICKS'}`,
    );
    if (lost > 0 || code !== 0) failed = true;
  });
}
console.log(machineFacts());
if (failed) process.exitCode = 1;
