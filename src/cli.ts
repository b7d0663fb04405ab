#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config.js';
import { openStore } from './store/db.js';
import { migrateToLatest } from './store/migrate.js';

const USAGE = `Usage: booklink <command> [options]

Commands:
  serve                         start the web server (migrates first)
  migrate                       apply database migrations and exit
  import <file> [--format F]    import a catalog file (F: openlibrary, csv, jsonl, gutenberg)
         [--restart]            import a finished file again from the start
  import <dump> <dump> [<dump>] Open Library's editions, works and authors dumps, in any order
  import-openlibrary --editions F [--works F] [--authors F] [--restart] [--batch-size N]
                                the same dumps named explicitly (plain or .gz)
  apikey create --name N        print a new API key once [--scope ingest]
  apikey list | revoke <prefix> list keys (prefixes only) or revoke one
  admin create-user --email E --role admin|editor [--password P]
                                add an admin-area account (password prompted if omitted)
  backup <file> [--force]       write a consistent copy of the database (pg_dump on PostgreSQL)
  help                          show this help

Configuration comes from environment variables; see README.md.`;

type Command = (args: string[]) => Promise<number>;

const commands: Record<string, Command> = {
  serve: async () => {
    // Loaded on demand: other commands need none of the web application.
    const { exitOnSignals, startServer } = await import('./server.js');
    const config = loadConfig();
    const server = await startServer(config);
    exitOnSignals(server, config.shutdownGraceMs);
    return -1;
  },
  migrate: async () => {
    const store = openStore(loadConfig());
    try {
      const applied = await migrateToLatest(store);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      return 0;
    } finally {
      await store.close();
    }
  },
  import: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string' }, restart: { type: 'boolean', default: false } },
    });
    const file = positionals[0];
    if (!file) {
      console.error('booklink import: missing <file>\n');
      console.error(USAGE);
      return 2;
    }
    if (positionals.length > 1) {
      const { classifyDumps } = await import('./catalog/import/index.js');
      return importDumps(await classifyDumps(positionals), values.restart);
    }
    const { importCatalogFile, formatImportSummary, createTerminalProgress, IMPORT_FORMATS } = await import(
      './catalog/import/index.js'
    );
    const format = IMPORT_FORMATS.find((name) => name === values.format);
    if (values.format !== undefined && !format) {
      console.error(
        `booklink import: unknown --format "${values.format}" (use ${IMPORT_FORMATS.join(', ')})`,
      );
      return 2;
    }
    const config = loadConfig();
    const store = openStore(config);
    try {
      await migrateToLatest(store);
      const summary = await importCatalogFile(store, file, {
        format,
        restart: values.restart,
        coversBaseUrl: config.openLibraryCoversUrl,
        ...createTerminalProgress(),
      });
      console.log(formatImportSummary(summary));
      await announceCatalogChange(config);
      return 0;
    } finally {
      await store.close();
    }
  },
  'import-openlibrary': async (args) => {
    const { values } = parseArgs({
      args,
      options: {
        editions: { type: 'string' },
        works: { type: 'string' },
        authors: { type: 'string' },
        restart: { type: 'boolean', default: false },
        'batch-size': { type: 'string' },
      },
    });
    const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
    if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
      console.error('booklink import-openlibrary: --batch-size must be a positive integer');
      return 2;
    }
    if (!values.editions && !values.works && !values.authors) {
      console.error('booklink import-openlibrary: name at least one of --editions, --works, --authors\n');
      console.error(USAGE);
      return 2;
    }
    return importDumps(
      { editions: values.editions, works: values.works, authors: values.authors },
      values.restart,
      batchSize,
    );
  },
  apikey: async (args) => {
    const { runApiKeyCommand } = await import('./cli/apikey.js');
    return runApiKeyCommand(args);
  },
  admin: async (args) => {
    const { runAdminCommand } = await import('./cli/admin.js');
    return runAdminCommand(args);
  },
  backup: async (args) => {
    const { runBackupCommand } = await import('./cli/backup.js');
    return runBackupCommand(args);
  },
  help: async () => {
    console.log(USAGE);
    return 0;
  },
};

/**
 * After an import, running instances drop their cached search answers at once when they share Redis
 * (`REDIS_URL`); without it, within `SEARCH_CACHE_MS`. A failure to tell them only warns.
 */
async function announceCatalogChange(config: Readonly<Config>): Promise<void> {
  if (!config.redisUrl) return;
  const { createRedis, closeRedis } = await import('./services/redis.js');
  const { announceChange } = await import('./services/change-relay.js');
  const redis = createRedis(config.redisUrl, { keyPrefix: config.redisKeyPrefix, onError: () => undefined });
  try {
    await announceChange(redis, { name: 'catalog-changed', args: [] });
  } catch (error) {
    console.warn(
      `booklink import: running servers not told (they see the import within SEARCH_CACHE_MS): ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await closeRedis(redis);
  }
}

/** The Open Library dumps import behind `import <dump>…` and `import-openlibrary`. */
async function importDumps(
  dumps: import('./catalog/import/index.js').DumpFiles,
  restart: boolean,
  batchSize?: number,
): Promise<number> {
  const { importOpenLibraryDumps, formatDumpsSummary, createTerminalProgress } = await import(
    './catalog/import/index.js'
  );
  const config = loadConfig();
  const store = openStore(config);
  try {
    await migrateToLatest(store);
    const progress = createTerminalProgress();
    const summary = await importOpenLibraryDumps(store, dumps, {
      restart,
      batchSize,
      coversBaseUrl: config.openLibraryCoversUrl,
      onStart: (start) => {
        progress.done();
        progress.onStart(start);
      },
      onProgress: progress.onProgress,
      onFinishing: progress.onFinishing,
    });
    progress.done();
    console.log(formatDumpsSummary(summary));
    await announceCatalogChange(config);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * The settings of a `.env` file in the working directory (see `.env.example`), under what the environment
 * already sets. Not under the test runner, whose servers take only the settings their tests give.
 */
function loadEnvFile(): void {
  if (process.env.NODE_ENV === 'test' || !existsSync('.env')) return;
  process.loadEnvFile('.env');
}

async function main(argv: string[]): Promise<number> {
  loadEnvFile();
  const [name = 'help', ...rest] = argv;
  const command = commands[name === '--help' || name === '-h' ? 'help' : name];
  if (!command) {
    console.error(`booklink: unknown command "${name}"\n`);
    console.error(USAGE);
    return 2;
  }
  return command(rest);
}

main(process.argv.slice(2))
  .then((code) => {
    if (code >= 0) process.exitCode = code;
  })
  .catch((error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(`booklink: configuration error: ${error.message}`);
      process.exit(78);
    }
    console.error(`booklink: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
