import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { buildApp } from './http/app.js';
import { bufferedStdout } from './http/request-log.js';
import { ensureFirstAdmin } from './services/admin/users.js';
import { deadLetterPath, openClickJournal, replayClickJournals } from './services/click-recorder.js';
import { createServices, type Services } from './services/container.js';
import { type Checkpoints, startCheckpoints } from './store/checkpoints.js';
import { openStore } from './store/db.js';
import { migrateToLatest } from './store/migrate.js';
import { settingOrCreate } from './store/settings.js';
import { countUsers } from './store/users.js';

/** The one line that tells whoever started the server where the site and its admin area are. */
export function startLine(
  address: string,
  baseUrl: string,
  created: string | null,
  accounts: number,
): string {
  const admin = created
    ? `the admin area at ${baseUrl}/admin, account ${created} created`
    : accounts > 0
      ? `the admin area at ${baseUrl}/admin`
      : `the admin area at ${baseUrl}/admin once an account exists (set ADMIN_EMAIL and ADMIN_PASSWORD, or run "npx booklink admin create-user")`;
  return `Booklink listening on ${address}: the site at ${baseUrl}, ${admin}`;
}

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  address: string;
  shutdown(signal?: string): Promise<void>;
  /** Writes the buffered log lines now (they are otherwise written within a quarter second). */
  flushLog(): void;
}

/** Opens the store, migrates, listens, and shuts down gracefully: in-flight requests finish, clicks flush. */
export async function startServer(config: Readonly<Config>): Promise<RunningServer> {
  const store = openStore(config);
  await migrateToLatest(store);
  // The first admin from ADMIN_EMAIL/ADMIN_PASSWORD, only while no account exists.
  const firstAdmin = await ensureFirstAdmin(store.db, config.adminEmail, config.adminPassword);
  const accounts = firstAdmin ? 1 : await countUsers(store.db);
  // Without COOKIE_SECRET, a random secret made once and kept in the database signs cookies, so a
  // fresh install is never signed with a value anyone can read in the source.
  const cookieSecret =
    config.cookieSecret ||
    (await settingOrCreate(store.db, 'cookie_secret', () => randomBytes(32).toString('base64url')));
  // Clicks a killed process had redirected for but not yet written, then this process's own journal.
  // Journals live under the database's own id, so two databases served from one machine never
  // replay each other's clicks.
  let clickJournal = null;
  if (config.clickWalDir) {
    const databaseId = await settingOrCreate(store.db, 'database_id', () => randomBytes(8).toString('hex'));
    const dir = join(config.clickWalDir, databaseId);
    const replay = await replayClickJournals(store.db, {
      dir,
      deadLetterFile: deadLetterPath(config.clickWalDir),
    });
    if (replay.journals > 0) {
      console.log(`click journal: ${replay.replayed} clicks replayed from ${replay.journals} journal(s)`);
    }
    clickJournal = await openClickJournal(dir, config.clickWalFsync);
  }
  const services = createServices(Object.freeze({ ...config, cookieSecret }), store, { clickJournal });
  // The operator's default language and country are read without waiting (brand.ts): read them once
  // now, so the first readers already get them. A failed read leaves the environment's defaults.
  await services.brand.current().catch(() => undefined);
  const log = bufferedStdout();
  // On SQLite, WAL checkpoints run in a thread of their own, off the event loop. It is started once
  // the app's logger exists, to report its failures; /metrics counts its checkpoints.
  let checkpoints: Checkpoints | null = null;
  const onDisk = store.sqlite ? !store.sqlite.memory : false;
  const app = await buildApp({
    services,
    logger: log,
    checkpoints: onDisk ? () => checkpoints?.stats() ?? { runs: 0, failures: 0 } : undefined,
  });
  checkpoints = startCheckpoints(store, {
    onFailure: (error) => app.log.error({ error }, 'SQLite WAL checkpoint failed'),
  });
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { baseUrl: config.baseUrl, database: store.dialect },
    startLine(address, config.baseUrl, firstAdmin?.email ?? null, accounts),
  );

  let closing: Promise<void> | undefined;
  const shutdown = (signal = 'shutdown') => {
    closing ??= (async () => {
      const graceMs = config.shutdownGraceMs;
      app.log.info({ signal, graceMs }, 'shutting down: finishing in-flight requests');
      // What has not finished within the grace (a stalled upload, a slow reader) is cut off, so the
      // clicks can be flushed and the process can exit before a service manager's SIGKILL.
      const deadline = setTimeout(() => {
        app.log.warn({ graceMs }, 'shutting down: grace period over, closing the connections still open');
        app.server.closeAllConnections();
      }, graceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(deadline);
      }
      await services.close();
      await checkpoints?.close();
      await store.close();
      log.flushSync();
    })();
    return closing;
  };
  return { app, services, address, shutdown, flushLog: () => log.flushSync() };
}

/**
 * After the grace, how long the clicks, journals and database may take to close before the process
 * exits anyway: grace and this together stay under the 30 s a container's stop waits for.
 */
const FLUSH_DEADLINE_MS = 15_000;

export function exitOnSignals(server: RunningServer, graceMs: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        console.error(`shutdown did not finish within ${graceMs + FLUSH_DEADLINE_MS} ms; exiting`);
        process.exit(1);
      }, graceMs + FLUSH_DEADLINE_MS).unref();
      server
        .shutdown(signal)
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          console.error('shutdown failed', error);
          process.exit(1);
        });
    });
  }
  // Only now that a signal stops the server gracefully: whoever waits for the listening line may
  // send one as soon as they read it.
  server.flushLog();
}
