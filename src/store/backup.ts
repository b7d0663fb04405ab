import type { Store } from './db.js';

/**
 * SQLite's online backup of the live database into `file` (the copy is itself a SQLite database),
 * reporting pages as it goes; resolves to the page count, or to null on PostgreSQL, whose copies are
 * made by `pg_dump` outside the process.
 */
export async function backupSqliteDatabase(
  store: Pick<Store, 'sqlite'>,
  file: string,
  onProgress: (done: number, total: number) => void,
): Promise<number | null> {
  if (!store.sqlite) return null;
  let pages = 0;
  await store.sqlite.backup(file, {
    progress: ({ totalPages, remainingPages }) => {
      pages = totalPages;
      onProgress(totalPages - remainingPages, totalPages);
      return 200;
    },
  });
  return pages;
}
