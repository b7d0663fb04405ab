import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { backupSqliteDatabase } from '../store/backup.js';
import { openStore } from '../store/db.js';

/**
 * `booklink backup <file>`: a consistent copy of the live database without stopping the server.
 * SQLite uses its online backup API (the copy is itself a SQLite database: point DATABASE_URL at it to
 * restore); PostgreSQL hands over to `pg_dump` in its custom format (restore with `pg_restore`).
 */
export async function runBackupCommand(args: string[]): Promise<number> {
  const [target, ...rest] = args;
  const force = rest.includes('--force');
  if (!target) {
    console.error('booklink backup: missing <file>');
    return 2;
  }
  const file = resolve(target);
  if (existsSync(file) && !force) {
    console.error(`booklink backup: ${file} exists; pass --force to overwrite it`);
    return 2;
  }
  const config = loadConfig();
  const store = openStore(config);
  try {
    const pages = await backupSqliteDatabase(store, file, (done, total) =>
      process.stderr.write(`\rbacking up: ${done}/${total} pages`),
    );
    if (pages !== null) {
      process.stderr.write('\n');
      console.log(`backup written: ${file} (${pages} pages)`);
      return 0;
    }
    return await pgDump(config.databaseUrl, file);
  } finally {
    await store.close();
  }
}

function pgDump(databaseUrl: string, file: string): Promise<number> {
  return new Promise((done) => {
    const child = spawn('pg_dump', ['--format=custom', `--file=${file}`, `--dbname=${databaseUrl}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', (error) => {
      console.error(
        `booklink backup: could not run pg_dump (${error.message}); install the PostgreSQL client tools`,
      );
      done(1);
    });
    child.on('close', (code) => {
      if (code === 0) console.log(`backup written: ${file} (pg_dump custom format; restore with pg_restore)`);
      done(code ?? 1);
    });
  });
}
