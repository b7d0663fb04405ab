import type SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import type { IdentifierPair } from '../domain/identifiers.js';
import { getOrAdd } from '../domain/memo.js';
import { compiledOnce } from './compiled.js';
import { type Dialect, type Store, sqliteSettings } from './db.js';
import { type IdentifierRoute, PENDING_IDENTIFIERS } from './deferred-indexes.js';
import type { KeyFilter } from './key-filter.js';
import { type Db, ENTRY_COLUMNS, type NewCatalogEntryRow } from './schema.js';

// Bulk writes of the catalog importers: every SQL statement and every SQLite/PostgreSQL difference of
// an import lives here or, for PostgreSQL's COPY path, in catalog-copy.ts, so the importers in
// src/catalog/import only parse and batch.

export type { IdentifierPair } from '../domain/identifiers.js';

/** Where identifier rows go: the index, or a first import's pending table (see store/deferred-indexes). */
type IdentifierTable = 'catalog_identifiers' | typeof PENDING_IDENTIFIERS;

// 22 parameters a row: 1,000 rows stay below SQLite's 32,766 bound values, and fewer, larger
// statements measured faster than 500 or 50 (one-row statements: half the speed). PostgreSQL binds one
// array per column, so its statements are bounded only by the batch.
export const ROWS_PER_STATEMENT: Readonly<Record<Dialect, number>> = { sqlite: 1000, postgres: 5000 };

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
    work_key: keep('work_key'),
    work_title: keep('work_title'),
    first_year: keep('first_year'),
    source_modified: keep('source_modified'),
  };
}

export const RETURNING = ' returning "id", "entry_key"';

/**
 * The SQL of an upsert of `rows` rows, compiled once per size and dialect (`compiledOnce`). It
 * returns each row's id, which the identifier index needs.
 */
export function upsertSql(db: Db, dialect: Dialect, rows: number): string {
  return compiledOnce(db, `catalog_entries:${rows}`, () => {
    const blank = Object.fromEntries(
      ENTRY_COLUMNS.map((column) => [column, '']),
    ) as unknown as NewCatalogEntryRow;
    const compiled = db
      .insertInto('catalog_entries')
      .values(Array.from({ length: rows }, () => blank))
      .onConflict((conflict) => conflict.column('entry_key').doUpdateSet(updateSet(dialect)))
      .compile();
    return compiled.sql + RETURNING;
  });
}

const INTEGER_COLUMNS: ReadonlySet<string> = new Set(['pages', 'popularity', 'first_year']);

/**
 * PostgreSQL gets one array parameter per column (`unnest`), so the statement text stays the same
 * whatever the row count: the server parses 22 parameters instead of 11,000 per statement.
 */
function postgresUpsertSql(db: Db): string {
  return compiledOnce(db, 'catalog_entries:unnest', () => {
    const single = upsertSql(db, 'postgres', 1);
    const arrays = ENTRY_COLUMNS.map(
      (column, i) => `$${i + 1}::${INTEGER_COLUMNS.has(column) ? 'integer' : 'text'}[]`,
    );
    return (
      `insert into "catalog_entries" (${ENTRY_COLUMNS.map((column) => `"${column}"`).join(', ')}) ` +
      `select * from unnest(${arrays.join(', ')})${single.slice(single.indexOf(' on conflict'))}`
    );
  });
}

// Prepared statements per connection, by name and row count. Every bulk statement comes in the four
// sizes of `BOUND_STATEMENT_ROWS`, so a connection prepares a few of each once and keeps them all. An
// upsert sized to each batch's remainder was prepared anew nearly every batch, and each one dropped
// from a bounded cache kept its compiled program (about 2 MB for 900 rows) in native memory, which V8
// does not see, until a full collection of this thread's small heap happened to free it: 10M editions
// into SQLite peaked at 443-527 MB resident instead of about 250 (bench/README, fifteenth run).
const prepared = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

function sqliteStatement(sqlite: SQLite.Database, key: string, text: () => string) {
  return getOrAdd(
    getOrAdd(prepared, sqlite, () => new Map<string, SQLite.Statement>()),
    key,
    () => sqlite.prepare(text()),
  );
}

/** The bound values of rows `from` to `to` (exclusive), column after column. */
function rowParameters(rows: readonly NewCatalogEntryRow[], from = 0, to = rows.length): unknown[] {
  const parameters: unknown[] = new Array((to - from) * ENTRY_COLUMNS.length);
  let i = 0;
  for (let r = from; r < to; r++) {
    const row = rows[r] as NewCatalogEntryRow;
    for (const column of ENTRY_COLUMNS) parameters[i++] = row[column] ?? null;
  }
  return parameters;
}

interface IdRow {
  id: number;
  entry_key: string;
}

type StoreLike = Pick<Store, 'dialect' | 'sqlite'>;

async function runUpsert(db: Db, store: StoreLike, rows: readonly NewCatalogEntryRow[]) {
  if (store.dialect === 'postgres') {
    const columns = ENTRY_COLUMNS.map((column) => rows.map((row) => row[column] ?? null));
    const result = await db.executeQuery<IdRow>(CompiledQuery.raw(postgresUpsertSql(db), columns));
    return result.rows;
  }
  // The raw connection is the one `db` runs on, so the statement joins the caller's transaction.
  if (store.sqlite) {
    const sqlite = store.sqlite;
    const ids: IdRow[] = [];
    for (const { at, size } of boundStatements(rows.length)) {
      const statement = sqliteStatement(sqlite, `catalog_entries:${size}`, () =>
        upsertSql(db, 'sqlite', size),
      );
      for (const row of statement.all(rowParameters(rows, at, at + size)) as IdRow[]) ids.push(row);
    }
    return ids;
  }
  const query = CompiledQuery.raw(upsertSql(db, 'sqlite', rows.length), rowParameters(rows));
  return (await db.executeQuery<IdRow>(query)).rows;
}

/** Adds rows to the identifier index, ignoring pairs already there. */
export async function insertCatalogIdentifiers(
  db: Db,
  store: StoreLike,
  rows: ReadonlyArray<readonly [scheme: string, value: string, entryId: number]>,
  into: IdentifierTable = 'catalog_identifiers',
): Promise<void> {
  const values: IdentifierValues = [];
  for (const [scheme, value, entryId] of rows) values.push(scheme, value, entryId);
  await insertIdentifierValues(db, store, values, into);
}

/**
 * Identifier rows as one flat list: scheme, value, entry id, scheme, … An import writes them by the
 * million, and a small array per row was garbage its writing thread collected.
 */
type IdentifierValues = Array<string | number>;

/**
 * `insertCatalogIdentifiers` of a flat list. PostgreSQL reads three arrays, so one statement text
 * serves every batch size; SQLite binds them (`insertSqliteIdentifiers`), or, with no raw connection
 * at hand, reads them from one JSON parameter.
 */
async function insertIdentifierValues(
  db: Db,
  store: StoreLike,
  values: IdentifierValues,
  into: IdentifierTable,
): Promise<void> {
  if (values.length === 0) return;
  if (store.dialect === 'postgres') {
    const column = (at: number) => values.filter((_, i) => i % 3 === at);
    await db.executeQuery(
      CompiledQuery.raw(
        `insert into ${into} (scheme, value, entry_id)
         select * from unnest($1::text[], $2::text[], $3::bigint[]) on conflict do nothing`,
        [column(0), column(1), column(2)],
      ),
    );
    return;
  }
  if (store.sqlite) {
    insertSqliteIdentifiers(store.sqlite, values, into);
    return;
  }
  const rows: Array<IdentifierValues> = [];
  for (let i = 0; i < values.length; i += 3) rows.push(values.slice(i, i + 3));
  const text = `insert or ignore into ${into} (scheme, value, entry_id)
    select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') from json_each(?)`;
  await db.executeQuery(CompiledQuery.raw(text, [JSON.stringify(rows)]));
}

/** Rows per SQLite statement of bound values, largest first: a batch takes at most 9 of each smaller size. */
const BOUND_STATEMENT_ROWS = [1000, 100, 10, 1] as const;

/** The statements that write `rows` rows in the sizes of `BOUND_STATEMENT_ROWS`: each one's first row and size. */
function* boundStatements(rows: number): Generator<{ at: number; size: number }> {
  let at = 0;
  for (const size of BOUND_STATEMENT_ROWS) for (; rows - at >= size; at += size) yield { at, size };
}

/**
 * Writes rows given as one flat list of values, `width` a row, as bound parameters in statements of
 * fixed sizes, so four prepared statements serve every batch (1,000 rows of up to 32 values stay under
 * SQLite's 32,766). `statement` gives the SQL around a `values` list; `name` keys its prepared forms.
 * Reading rows back out of one JSON parameter instead cost a JSON parse per column of every row.
 */
export function writeSqliteRows(
  sqlite: SQLite.Database,
  name: string,
  width: number,
  values: readonly unknown[],
  statement: (list: string) => string,
): void {
  const row = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  // One parameter array per size, refilled for each statement of that size.
  let parameters: unknown[] = [];
  for (const { at, size } of boundStatements(values.length / width)) {
    const prepared = sqliteStatement(sqlite, `${name}:${size}`, () =>
      statement(Array.from({ length: size }, () => row).join(', ')),
    );
    if (parameters.length !== size * width) parameters = new Array(size * width);
    for (let i = 0; i < parameters.length; i++) parameters[i] = values[at * width + i];
    prepared.run(parameters);
  }
}

/** Identifier rows as bound parameters (`writeSqliteRows`): three JSON parses a row cost more. */
function insertSqliteIdentifiers(
  sqlite: SQLite.Database,
  values: Readonly<IdentifierValues>,
  into: IdentifierTable,
): void {
  writeSqliteRows(
    sqlite,
    into,
    3,
    values,
    (list) => `insert or ignore into ${into} (scheme, value, entry_id) values ${list}`,
  );
}

export interface WriterOptions {
  /** Where identifier rows go for now (a first import's indexes are down: see store/deferred-indexes). */
  identifierRoute?: () => IdentifierRoute;
  /**
   * The keys a first import has written so far (PostgreSQL: while the identifier key is down, rows of
   * keys certainly not written yet are copied straight into the catalog; see store/catalog-copy).
   */
  written?: KeyFilter;
}

export interface CatalogWriter {
  /**
   * Queues an entry and its identifiers; a full statement's worth is written at once. Returns a
   * promise only when it writes, so the rows it only queues cost no await.
   */
  add(entry: NewCatalogEntryRow, identifiers: readonly IdentifierPair[]): Promise<void> | undefined;
  /** Writes what is queued, and waits for every write. */
  flush(): Promise<void>;
}

/**
 * Upserts entries in file order, a statement at a time as soon as it is full, so a batch never holds
 * all its rows in memory, then indexes their identifiers. A statement never holds one key twice
 * (PostgreSQL refuses to update a row twice in one statement), so a repeated key starts the next
 * statement and merges like a re-import. Identifiers are only ever added, like the JSON merge above
 * keeps earlier sources' ones.
 */
export function catalogWriter(db: Db, store: StoreLike, options: WriterOptions = {}): CatalogWriter {
  const limit = ROWS_PER_STATEMENT[store.dialect];
  let chunk: NewCatalogEntryRow[] = [];
  let pairs = new Map<string, readonly IdentifierPair[]>();
  const flush = async () => {
    if (chunk.length === 0) return;
    const rows = chunk;
    const identifiers = pairs;
    chunk = [];
    pairs = new Map();
    const route = options.identifierRoute?.() ?? 'index';
    // Only the bulk path tells inserted entries from updated ones: elsewhere an unkeyed index waits too.
    const into = route === 'index' ? 'catalog_identifiers' : PENDING_IDENTIFIERS;
    const ids = await runUpsert(db, store, rows);
    const values: IdentifierValues = [];
    for (const { id, entry_key } of ids) {
      for (const [scheme, value] of identifiers.get(entry_key) ?? []) values.push(scheme, value, Number(id));
    }
    await insertIdentifierValues(db, store, values, into);
  };
  return {
    add(entry, identifiers) {
      const repeated = pairs.has(entry.entry_key);
      const queue = () => {
        chunk.push(entry);
        pairs.set(entry.entry_key, identifiers);
        return chunk.length === limit ? flush() : undefined;
      };
      return repeated ? flush().then(queue) : queue();
    },
    flush,
  };
}

/**
 * Connection settings for the length of an import on SQLite; returns the function that restores them.
 * A bigger page cache (64 MB: 128 MB cost 90 MB of peak memory and no measurable speed at 1M editions)
 * keeps the randomly ordered indexes (match_key, isbn10) in memory across batches, and fewer automatic
 * checkpoints stop copying the same hot pages back every 1,000 WAL pages.
 * Durability is untouched: every batch still commits with the configured `synchronous` level.
 */
export function tuneForImport(store: Pick<Store, 'sqlite'>): () => void {
  if (!store.sqlite) return () => undefined;
  return sqliteSettings(store.sqlite, { cache_size: -65536, wal_autocheckpoint: 16384 });
}
