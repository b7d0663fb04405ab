import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Dialect } from '../../store/db.js';
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

// 18 parameters a row: 500 rows stay far below SQLite's 32,766 bound values. PostgreSQL binds one
// array per column, so its statements are bounded only by the batch.
const ROWS_PER_STATEMENT: Readonly<Record<Dialect, number>> = { sqlite: 500, postgres: 5000 };

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

async function runUpsert(db: Kysely<Database>, dialect: Dialect, rows: readonly NewCatalogEntryRow[]) {
  if (dialect === 'postgres') {
    const columns = COLUMNS.map((column) => rows.map((row) => row[column] ?? null));
    await db.executeQuery(CompiledQuery.raw(postgresUpsertSql(db), columns));
    return;
  }
  const parameters: unknown[] = [];
  for (const row of rows) for (const column of COLUMNS) parameters.push(row[column] ?? null);
  await db.executeQuery(CompiledQuery.raw(upsertSql(db, dialect, rows.length), parameters));
}

/**
 * Upserts entries in file order. A statement never holds one key twice (PostgreSQL refuses to update
 * a row twice in one statement), so a repeated key starts the next statement and merges like a re-import.
 */
export async function upsertEntries(
  db: Kysely<Database>,
  dialect: Dialect,
  entries: readonly NewCatalogEntryRow[],
): Promise<void> {
  let chunk: NewCatalogEntryRow[] = [];
  let keys = new Set<string>();
  for (const entry of entries) {
    if (chunk.length === ROWS_PER_STATEMENT[dialect] || keys.has(entry.entry_key)) {
      await runUpsert(db, dialect, chunk);
      chunk = [];
      keys = new Set();
    }
    chunk.push(entry);
    keys.add(entry.entry_key);
  }
  if (chunk.length > 0) await runUpsert(db, dialect, chunk);
}
