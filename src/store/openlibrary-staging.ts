import type SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { writeSqliteRows } from './catalog-import.js';
import type { Store } from './db.js';
import type { Db } from './schema.js';

// Staging tables of the Open Library authors and works dumps: compact keyed rows, written in bulk and
// read back a batch of keys at a time while the editions stream past, so no dump is held in memory.

export interface StagedAuthor {
  key: string;
  name: string;
  modified: string | null;
}

export interface StagedWork {
  key: string;
  title: string | null;
  firstYear: number | null;
  /** Comma-separated author keys. */
  authorKeys: string;
  modified: string | null;
}

type StoreLike = Pick<Store, 'dialect' | 'sqlite'>;

/**
 * A later dump's record replaces the staged one. PostgreSQL reads a batch from one array per column in
 * one statement; SQLite binds the rows (`writeSqliteRows`), or, with no raw connection at hand, reads
 * them from one JSON parameter.
 */
async function upsertRows(
  db: Db,
  store: StoreLike,
  table: 'ol_authors' | 'ol_works',
  columns: readonly string[],
  types: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
): Promise<void> {
  if (rows.length === 0) return;
  const key = columns[0];
  const updates = columns
    .slice(1)
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  if (store.dialect === 'postgres') {
    // PostgreSQL refuses to update one row twice in a statement: a key given twice in a batch keeps
    // its last record, as it does on SQLite, where the statement's rows upsert one after another.
    const last = new Map<unknown, (typeof rows)[number]>();
    for (const row of rows) last.set(row[0], row);
    const unique = last.size === rows.length ? rows : [...last.values()];
    const arrays = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
    const text = `insert into ${table} (${columns.join(', ')}) select * from unnest(${arrays})
      on conflict (${key}) do update set ${updates}`;
    await db.executeQuery(
      CompiledQuery.raw(
        text,
        columns.map((_, i) => unique.map((row) => row[i] ?? null)),
      ),
    );
    return;
  }
  const head = `insert into ${table} (${columns.join(', ')})`;
  const tail = `on conflict (${key}) do update set ${updates}`;
  if (store.sqlite) {
    // Bound parameters: read back out of one JSON parameter, a row cost a JSON parse per column.
    const values: Array<string | number | null> = [];
    for (const row of rows) for (let i = 0; i < columns.length; i++) values.push(row[i] ?? null);
    writeSqliteRows(store.sqlite, table, columns.length, values, (list) => `${head} values ${list} ${tail}`);
    return;
  }
  const picks = columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ');
  // "where true" lets SQLite tell the upsert clause from a join's ON.
  const text = `${head} select ${picks} from json_each(?) where true ${tail}`;
  await db.executeQuery(CompiledQuery.raw(text, [JSON.stringify(rows)]));
}

export function stageOlAuthors(db: Db, store: StoreLike, authors: readonly StagedAuthor[]) {
  return upsertRows(
    db,
    store,
    'ol_authors',
    ['author_key', 'name', 'last_modified'],
    ['text', 'text', 'text'],
    authors.map((author) => [author.key, author.name, author.modified]),
  );
}

export function stageOlWorks(db: Db, store: StoreLike, works: readonly StagedWork[]) {
  return upsertRows(
    db,
    store,
    'ol_works',
    ['work_key', 'title', 'first_year', 'author_keys', 'last_modified'],
    ['text', 'text', 'integer', 'text', 'text'],
    works.map((work) => [work.key, work.title, work.firstYear, work.authorKeys, work.modified]),
  );
}

/**
 * The staged rows whose key is one of `keys`, each key probed through the primary key. PostgreSQL gets
 * the keys as one array (an IN list of 5,000 parameters cost the server more to parse and plan than the
 * probes), read in a lateral subquery that `limit 1` keeps a probe per key: given `= any(array)` or a
 * join with the array, its planner chose a scan of the whole table for a few thousand keys (400,000
 * works: a parallel scan, three processes for 25-35 ms a batch, against 11 ms for 4,000 probes), and a
 * scan grows with the table where probes do not. SQLite without its raw handle reads a JSON array.
 */
function stagedRows<Row>(
  db: Db,
  store: StoreLike,
  table: 'ol_authors' | 'ol_works',
  columns: string,
  key: string,
  keys: readonly string[],
) {
  const query =
    store.dialect === 'postgres'
      ? sql<Row>`select s.* from unnest(${[...keys]}::text[]) k(key) cross join lateral
          (select ${sql.raw(columns)} from ${sql.table(table)} where ${sql.ref(key)} = k.key limit 1) s`
      : sql<Row>`select ${sql.raw(columns)} from ${sql.table(table)}
          where ${sql.ref(key)} in (select value from json_each(${JSON.stringify(keys)}))`;
  return query.execute(db);
}

// On SQLite one statement, prepared once per connection, probes the primary key for every key of a
// JSON array parameter: a 5,000-value IN list cost more to build and plan than the probes themselves,
// and a statement run per key cost more in crossings into SQLite.
const lookups = new WeakMap<SQLite.Database, { author: SQLite.Statement; work: SQLite.Statement }>();

function sqliteLookups(sqlite: SQLite.Database) {
  let statements = lookups.get(sqlite);
  if (!statements) {
    statements = {
      author: sqlite
        .prepare(
          'select a.author_key, a.name from json_each(?) k join ol_authors a on a.author_key = k.value',
        )
        .raw(),
      work: sqlite
        .prepare(
          `select w.work_key, w.title, w.first_year, w.author_keys, w.last_modified
         from json_each(?) k join ol_works w on w.work_key = k.value`,
        )
        .raw(),
    };
    lookups.set(sqlite, statements);
  }
  return statements;
}

interface WorkRow {
  work_key: string;
  title: string | null;
  first_year: number | null;
  author_keys: string;
  last_modified: string | null;
}

const stagedWork = (row: WorkRow): StagedWork => ({
  key: row.work_key,
  title: row.title,
  firstYear: row.first_year,
  authorKeys: row.author_keys,
  modified: row.last_modified,
});

/** Author key → name, for the keys staged. */
export async function olAuthorNames(db: Db, store: StoreLike, keys: readonly string[]) {
  const names = new Map<string, string>();
  if (store.sqlite) {
    const rows = sqliteLookups(store.sqlite).author.all(JSON.stringify(keys)) as Array<[string, string]>;
    for (const [key, name] of rows) names.set(key, name);
    return names;
  }
  const rows = await stagedRows<{ author_key: string; name: string }>(
    db,
    store,
    'ol_authors',
    'author_key, name',
    'author_key',
    keys,
  );
  for (const row of rows.rows) names.set(row.author_key, row.name);
  return names;
}

/** Work key → staged work, for the keys staged. */
export async function olWorks(db: Db, store: StoreLike, keys: readonly string[]) {
  const works = new Map<string, StagedWork>();
  if (store.sqlite) {
    // Rows as arrays, each made a staged work at once: an object per row in between was garbage.
    const rows = sqliteLookups(store.sqlite).work.all(JSON.stringify(keys)) as Array<
      [string, string | null, number | null, string, string | null]
    >;
    for (const [key, title, firstYear, authorKeys, modified] of rows)
      works.set(key, { key, title, firstYear, authorKeys, modified });
    return works;
  }
  const rows = await stagedRows<WorkRow>(
    db,
    store,
    'ol_works',
    'work_key, title, first_year, author_keys, last_modified',
    'work_key',
    keys,
  );
  for (const row of rows.rows) works.set(row.work_key, stagedWork(row));
  return works;
}

/** Whether `source` has entries an import starting at `before` has not written yet (a re-import). */
export async function hasEntriesBefore(db: Db, source: string, before: string) {
  const row = await db
    .selectFrom('catalog_entries')
    .select(sql<number>`1`.as('found'))
    .where('source', '=', source)
    .where('updated_at', '<', before)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
