import type SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Dialect, Store } from '../../store/db.js';
import type { Database, NewCatalogEntryRow } from '../../store/schema.js';

/** Every written column, in the order parameters are bound. */
const COLUMNS = [
  'entry_key',
  'source',
  'isbn13',
  'isbn10',
  'title',
  'subtitle',
  'authors',
  'published_date',
  'publisher',
  'cover_url',
  'language',
  'format',
  'pages',
  'description',
  'identifiers',
  'match_key',
  'popularity',
  'updated_at',
] as const satisfies ReadonlyArray<keyof NewCatalogEntryRow>;

// 18 parameters a row: 1,000 rows stay below SQLite's 32,766 bound values, and fewer, larger
// statements measured faster than 500 or 50 (one-row statements: half the speed). PostgreSQL binds one
// array per column, so its statements are bounded only by the batch.
const ROWS_PER_STATEMENT: Readonly<Record<Dialect, number>> = { sqlite: 1000, postgres: 5000 };

// Typed as `never` so one helper fits every column; the SQL is fixed text, never user input.
const raw = (text: string) => sql.raw<never>(text);
const keep = (column: string) => raw(`coalesce(excluded.${column}, catalog_entries.${column})`);

/**
 * A later import updates an entry without erasing what an earlier source knew: empty fields keep the
 * old value, identifiers are merged (Open Library's work key survives a Goodreads CSV), and a zero
 * popularity does not replace a known one. The JSON merge is the only dialect difference.
 */
function updateSet(dialect: Dialect) {
  const noAuthors = "excluded.authors = '[]'";
  return {
    source: raw('excluded.source'),
    isbn13: raw('excluded.isbn13'),
    isbn10: raw('excluded.isbn10'),
    title: raw('excluded.title'),
    subtitle: keep('subtitle'),
    authors: raw(`case when ${noAuthors} then catalog_entries.authors else excluded.authors end`),
    published_date: keep('published_date'),
    publisher: keep('publisher'),
    cover_url: keep('cover_url'),
    language: keep('language'),
    format: keep('format'),
    pages: keep('pages'),
    description: keep('description'),
    identifiers: raw(
      dialect === 'sqlite'
        ? 'json_patch(catalog_entries.identifiers, excluded.identifiers)'
        : '(catalog_entries.identifiers::jsonb || excluded.identifiers::jsonb)::text',
    ),
    match_key: raw(`case when ${noAuthors} then catalog_entries.match_key else excluded.match_key end`),
    popularity: raw(
      'case when excluded.popularity > 0 then excluded.popularity else catalog_entries.popularity end',
    ),
    updated_at: raw('excluded.updated_at'),
  };
}

const templates = new Map<string, string>();

/**
 * The SQL of an upsert of `rows` rows, compiled by Kysely once per size and dialect: building a
 * 9,000-value query tree for every batch cost more than parsing the rows did.
 */
function upsertSql(db: Kysely<Database>, dialect: Dialect, rows: number): string {
  const cacheKey = `${dialect}:${rows}`;
  const cached = templates.get(cacheKey);
  if (cached) return cached;
  const blank = Object.fromEntries(COLUMNS.map((column) => [column, ''])) as unknown as NewCatalogEntryRow;
  const compiled = db
    .insertInto('catalog_entries')
    .values(Array.from({ length: rows }, () => blank))
    .onConflict((conflict) => conflict.column('entry_key').doUpdateSet(updateSet(dialect)))
    .compile();
  templates.set(cacheKey, compiled.sql);
  return compiled.sql;
}

const INTEGER_COLUMNS: ReadonlySet<string> = new Set(['pages', 'popularity']);

/**
 * PostgreSQL gets one array parameter per column (`unnest`), so the statement text stays the same
 * whatever the row count: the server parses 18 parameters instead of 9,000 per statement.
 */
function postgresUpsertSql(db: Kysely<Database>): string {
  const cached = templates.get('postgres:unnest');
  if (cached) return cached;
  const single = upsertSql(db, 'postgres', 1);
  const arrays = COLUMNS.map(
    (column, i) => `$${i + 1}::${INTEGER_COLUMNS.has(column) ? 'integer' : 'text'}[]`,
  );
  const text =
    `insert into "catalog_entries" (${COLUMNS.map((column) => `"${column}"`).join(', ')}) ` +
    `select * from unnest(${arrays.join(', ')})${single.slice(single.indexOf(' on conflict'))}`;
  templates.set('postgres:unnest', text);
  return text;
}

// Prepared statements per connection and row count. Full-size statements are the common case; the
// few short ones that end a batch are kept too, up to a bound, as their sizes repeat little.
const prepared = new WeakMap<SQLite.Database, Map<number, SQLite.Statement>>();
const MAX_PREPARED = 8;

function sqliteStatement(db: Kysely<Database>, sqlite: SQLite.Database, rows: number): SQLite.Statement {
  let cache = prepared.get(sqlite);
  if (!cache) {
    cache = new Map();
    prepared.set(sqlite, cache);
  }
  const cached = cache.get(rows);
  if (cached) return cached;
  const statement = sqlite.prepare(upsertSql(db, 'sqlite', rows));
  if (cache.size >= MAX_PREPARED) {
    const shortest = [...cache.keys()].sort((a, b) => a - b)[0];
    if (shortest !== undefined) cache.delete(shortest);
  }
  cache.set(rows, statement);
  return statement;
}

function rowParameters(rows: readonly NewCatalogEntryRow[]): unknown[] {
  const parameters: unknown[] = new Array(rows.length * COLUMNS.length);
  let i = 0;
  for (const row of rows) for (const column of COLUMNS) parameters[i++] = row[column] ?? null;
  return parameters;
}

async function runUpsert(
  db: Kysely<Database>,
  store: Pick<Store, 'dialect' | 'sqlite'>,
  rows: readonly NewCatalogEntryRow[],
) {
  if (store.dialect === 'postgres') {
    const columns = COLUMNS.map((column) => rows.map((row) => row[column] ?? null));
    await db.executeQuery(CompiledQuery.raw(postgresUpsertSql(db), columns));
    return;
  }
  // The raw connection is the one `db` runs on, so the statement joins the caller's transaction.
  if (store.sqlite) sqliteStatement(db, store.sqlite, rows.length).run(rowParameters(rows));
  else await db.executeQuery(CompiledQuery.raw(upsertSql(db, 'sqlite', rows.length), rowParameters(rows)));
}

export interface UpsertWriter {
  /** Queues an entry; a full statement's worth is written at once. */
  add(entry: NewCatalogEntryRow): Promise<void>;
  /** Writes what is queued. */
  flush(): Promise<void>;
}

/**
 * Upserts entries in file order, a statement at a time, so a batch never holds all its rows in memory.
 * A statement never holds one key twice (PostgreSQL refuses to update a row twice in one statement),
 * so a repeated key starts the next statement and merges like a re-import.
 */
export function upsertWriter(db: Kysely<Database>, store: Pick<Store, 'dialect' | 'sqlite'>): UpsertWriter {
  const limit = ROWS_PER_STATEMENT[store.dialect];
  let chunk: NewCatalogEntryRow[] = [];
  let keys = new Set<string>();
  const flush = async () => {
    if (chunk.length === 0) return;
    const rows = chunk;
    chunk = [];
    keys = new Set();
    await runUpsert(db, store, rows);
  };
  return {
    async add(entry) {
      if (chunk.length === limit || keys.has(entry.entry_key)) await flush();
      chunk.push(entry);
      keys.add(entry.entry_key);
    },
    flush,
  };
}

/**
 * Connection settings for the length of an import on SQLite; returns the function that restores them.
 * A bigger page cache keeps the randomly ordered indexes (match_key, isbn10) in memory across batches,
 * and fewer automatic checkpoints stop copying the same hot pages back every 1,000 WAL pages.
 * Durability is untouched: every batch still commits with the configured `synchronous` level.
 */
export function tuneForImport(store: Pick<Store, 'sqlite'>): () => void {
  const sqlite = store.sqlite;
  if (!sqlite) return () => undefined;
  const previous = {
    cache_size: sqlite.pragma('cache_size', { simple: true }),
    wal_autocheckpoint: sqlite.pragma('wal_autocheckpoint', { simple: true }),
  };
  sqlite.pragma('cache_size = -131072');
  sqlite.pragma('wal_autocheckpoint = 16384');
  return () => {
    for (const [name, value] of Object.entries(previous)) sqlite.pragma(`${name} = ${Number(value)}`);
  };
}
