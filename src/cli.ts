#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { openStore } from './store/db.js';
import { migrateToLatest } from './store/migrate.js';

const USAGE = `Usage: booklink <command> [options]

Commands:
  serve                         start the web server (migrates first)
  migrate                       apply database migrations and exit
  import <file> [--format F]    import a catalog file (F: openlibrary, csv, jsonl, gutenberg)
         [--restart]            import a finished file again from the start
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
    const server = await startServer(loadConfig());
    exitOnSignals(server);
    return -1;
  },
  migrate: async () => {
    const store = openStore(loadConfig().databaseUrl);
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
    const store = openStore(config.databaseUrl);
    try {
      await migrateToLatest(store);
      const summary = await importCatalogFile(store, file, {
        format,
        restart: values.restart,
        coversBaseUrl: config.openLibraryCoversUrl,
        ...createTerminalProgress(),
      });
      console.log(formatImportSummary(summary));
      return 0;
    } finally {
      await store.close();
    }
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

async function main(argv: string[]): Promise<number> {
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
