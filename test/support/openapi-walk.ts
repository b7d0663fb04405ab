/**
 * Walks an OpenAPI 3.1 document (the one the app serves) and derives requests from it: a valid
 * baseline per operation, and one invalid variant per declared constraint of each parameter and body
 * property, with the SPEC 7 `loc` and `type` the service must answer. A new route is covered as soon as
 * it declares its schemas.
 */
import { sql } from 'kysely';
import { insertAccessCode } from '../../src/store/access-codes.js';
import { createApiKey } from '../../src/store/api-keys.js';
import type { Store } from '../../src/store/db.js';
import { HUMAN_UA, type TestApp } from './app.js';
import { eventually } from './eventually.js';
import { addCatalogEntry } from './factories.js';

export interface JsonSchema {
  type?: string | string[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  maxItems?: number;
  minItems?: number;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  $ref?: string;
}

export interface Parameter {
  in: 'query' | 'path' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
}

export interface Operation {
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Endpoint {
  method: string;
  /** The OpenAPI path template, e.g. `/api/v1/lists/{id}`. */
  path: string;
  operation: Operation;
}

export type Location = 'query' | 'path' | 'header' | 'body';
export type Loc = Array<string | number>;

/** One invalid request: the value to put at `loc` (or OMIT it), and the SPEC 7 type expected there. */
export interface Violation {
  loc: Loc;
  value: unknown;
  type: string;
  constraint: string;
}

export const OMIT: unique symbol = Symbol('omit');

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Every operation of the document, except those under the given path prefixes. */
export function endpoints(document: OpenApiDocument, skipPrefixes: readonly string[]): Endpoint[] {
  const found: Endpoint[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (skipPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.has(method)) found.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return found;
}

export const operationKey = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

/** The non-null branch of a nullable schema (`anyOf: [T, {type: null}]`); other schemas as they are. */
export function effective(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  const nonNull = branches.filter((branch) => branch.type !== 'null');
  if (nonNull.length === 1 && nonNull[0]) return effective(nonNull[0]);
  return schema;
}

/** The literal values a schema allows (an enum, a const, or a union of literals); null when unconstrained. */
export function literals(schema: JsonSchema): unknown[] | null {
  const own = effective(schema);
  if (own.enum) return own.enum;
  if (own.const !== undefined) return [own.const];
  const branches = own.anyOf ?? own.oneOf;
  if (!branches) return null;
  const values = branches.map(literals);
  return values.every((value) => value !== null) ? values.flat() : null;
}

function typeOf(schema: JsonSchema): string | undefined {
  const own = effective(schema);
  return Array.isArray(own.type) ? own.type.find((type) => type !== 'null') : own.type;
}

/** A string that does not match `pattern` (tried against a few unlikely candidates). */
export function nonMatching(pattern: string): string {
  const regex = new RegExp(pattern, 'u');
  const candidate = ['!', '~nope~', '0', 'zz zz', '\u00e9\u00e9'].find((value) => !regex.test(value));
  if (candidate === undefined) throw new Error(`no value found that misses /${pattern}/`);
  return candidate;
}

/** A plausible valid value for a schema: its example, default, first literal, or a synthetic one. */
export function sampleValue(schema: JsonSchema): unknown {
  const own = effective(schema);
  if (own.examples?.[0] !== undefined) return own.examples[0];
  if (own.example !== undefined) return own.example;
  if (own.default !== undefined) return own.default;
  const allowed = literals(own);
  if (allowed?.[0] !== undefined) return allowed[0];
  switch (typeOf(own)) {
    case 'integer':
    case 'number':
      return Math.max(own.minimum ?? 1, Math.min(own.maximum ?? 1, 1));
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(own.minItems ?? 0, 1) }, () => sampleValue(own.items ?? {}));
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const name of own.required ?? []) value[name] = sampleValue(own.properties?.[name] ?? {});
      return value;
    }
    default:
      return 'x'.repeat(Math.max(own.minLength ?? 1, 1));
  }
}

/**
 * The invalid values of one schema at `loc`: one per declared constraint (length, range, integer,
 * boolean, literal, pattern, item count), and recursively for array items and object properties.
 * `itemAt` gives a valid item of the array at a location, for arrays made too long or too short.
 */
export function violations(schema: JsonSchema, loc: Loc, itemAt?: (loc: Loc) => unknown): Violation[] {
  const own = effective(schema);
  const found: Violation[] = [];
  const add = (constraint: string, value: unknown, type: string, at: Loc = loc) =>
    found.push({ loc: at, value, type, constraint });
  const type = typeOf(own);
  const allowed = literals(own);
  if (allowed) add('enum', 'not-one-of-these', 'literal_error');
  if (type === 'string' && !allowed) {
    if (own.maxLength !== undefined)
      add(`maxLength ${own.maxLength}`, 'x'.repeat(own.maxLength + 1), 'string_too_long');
    if (own.minLength !== undefined && own.minLength > 0)
      add(`minLength ${own.minLength}`, 'x'.repeat(own.minLength - 1), 'string_too_short');
    if (own.pattern !== undefined)
      add(`pattern ${own.pattern}`, nonMatching(own.pattern), 'string_pattern_mismatch');
  }
  if (type === 'integer' || type === 'number') {
    if (type === 'integer') add('type integer', 'not-a-number', 'int_parsing');
    if (own.minimum !== undefined) add(`minimum ${own.minimum}`, own.minimum - 1, 'greater_than_equal');
    if (own.maximum !== undefined) add(`maximum ${own.maximum}`, own.maximum + 1, 'less_than_equal');
  }
  if (type === 'boolean') add('type boolean', 'maybe', 'bool_parsing');
  if (type === 'array') {
    const item = () => itemAt?.(loc) ?? sampleValue(own.items ?? {});
    if (own.maxItems !== undefined)
      add(`maxItems ${own.maxItems}`, Array.from({ length: own.maxItems + 1 }, item), 'too_long');
    if (own.minItems !== undefined && own.minItems > 0)
      add(`minItems ${own.minItems}`, Array.from({ length: own.minItems - 1 }, item), 'too_short');
    if (own.items) found.push(...violations(own.items, [...loc, 0], itemAt));
  }
  if (type === 'object' || own.properties) {
    for (const [name, property] of Object.entries(own.properties ?? {})) {
      if (own.required?.includes(name) && property.default === undefined)
        add(`required ${name}`, OMIT, 'missing', [...loc, name]);
      found.push(...violations(property, [...loc, name], itemAt));
    }
  }
  return found;
}

/** The value at `path` inside `root`, if any. */
export function valueAt(root: unknown, path: Loc): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** Sets (or removes, for OMIT) the value at `path` inside a deep copy of `root`. */
export function withValueAt(root: unknown, path: Loc, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: unknown = structuredClone(root ?? (typeof path[0] === 'number' ? [] : {}));
  let current = copy as Record<string | number, unknown>;
  for (const [index, segment] of path.slice(0, -1).entries()) {
    const next = path[index + 1];
    if (current[segment] === undefined || current[segment] === null)
      current[segment] = typeof next === 'number' ? [] : {};
    current = current[segment] as Record<string | number, unknown>;
  }
  const last = path.at(-1) as string | number;
  if (value === OMIT) {
    if (Array.isArray(current) && typeof last === 'number') current.splice(last, 1);
    else delete current[last];
  } else current[last] = value;
  return copy;
}

/** The JSON schema of an operation's body, when it takes one. */
export function bodySchema(operation: Operation): JsonSchema | null {
  const content = operation.requestBody?.content;
  if (!content) return null;
  return content['application/json']?.schema ?? Object.values(content)[0]?.schema ?? null;
}

/** Fills `{name}` placeholders of an OpenAPI path with encoded values. */
export function fillPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** One SPEC 7 entry, as the service answers it. */
export interface Issue {
  type: string;
  loc: Loc;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Problems with a body that claims to be SPEC 7's: empty when it is well formed. */
export function spec7Problems(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { detail?: unknown }).detail))
    return ['body has no detail array'];
  const detail = (body as { detail: unknown[] }).detail;
  if (detail.length === 0) return ['detail is empty'];
  const problems: string[] = [];
  for (const entry of detail) {
    const issue = entry as Partial<Issue>;
    if (!Array.isArray(issue.loc) || !issue.loc.every((part) => ['string', 'number'].includes(typeof part)))
      problems.push(`loc is not an array of strings and integers: ${JSON.stringify(entry)}`);
    if (typeof issue.msg !== 'string') problems.push(`msg is not a string: ${JSON.stringify(entry)}`);
    if (typeof issue.type !== 'string') problems.push(`type is not a string: ${JSON.stringify(entry)}`);
    if (issue.ctx !== undefined && (issue.ctx === null || typeof issue.ctx !== 'object'))
      problems.push(`ctx is not an object: ${JSON.stringify(entry)}`);
  }
  return problems;
}

/** Real records for path parameters and bodies, made the way readers and operators make them. */
export interface SeededRecords {
  isbn: string;
  bookId: number;
  bookSlug: string;
  destination: string;
  /** The public id (text) of a list made through the API. */
  listId: string;
  editToken: string;
  sfid: number;
  ingestKey: string;
  accessCode: string;
}

export const HUNGER_GAMES = {
  isbn13: '9780439023481',
  isbn10: '0439023483',
  title: 'The Hunger Games',
  authors: ['Suzanne Collins'],
  publishedDate: '2008-09-14',
  coverUrl: 'https://covers.openlibrary.org/b/isbn/9780439023481-L.jpg',
};

/**
 * Seeds through the public surface where one exists: the book via `/isbn/` from a catalog entry, a list
 * via the API, an sfid via a logged search; the ingest key and the access code through their stores.
 */
export async function seedRecords(t: TestApp, store: Store): Promise<SeededRecords> {
  await addCatalogEntry(store, HUNGER_GAMES);
  const created = await t.get(`/isbn/${HUNGER_GAMES.isbn13}`);
  const location = created.headers.get('location') ?? '';
  const bookSlug = decodeURIComponent(/^\/book\/([^/?]+)/.exec(location)?.[1] ?? '');
  if (!bookSlug) throw new Error(`/isbn/ did not create the book: ${created.status} ${location}`);
  const book = await store.db
    .selectFrom('books')
    .select('id')
    .where('slug', '=', bookSlug)
    .executeTakeFirstOrThrow();
  const page = await (await t.get(`/book/${bookSlug}`)).text();
  const destination = /href="\/go\/[^/"]+\/([^/"?]+)/.exec(page)?.[1];
  if (!destination) throw new Error('the book page links no destination');
  const list = (await (
    await fetch(`${t.baseUrl}/api/v1/lists`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': HUMAN_UA },
      body: JSON.stringify({ name: 'Seeded list', book_id: Number(book.id) }),
    })
  ).json()) as { id: string; edit_token: string };
  const searched = await t.get('/api/v1/search?q=hunger+games');
  if (searched.status !== 200) throw new Error(`search answered ${searched.status}`);
  // The API's search log is buffered (written within a second): wait for the row.
  const logged = await eventually(async () =>
    (
      await sql<{ id: number | string | null }>`select max(id) as id from searches`.execute(store.db)
    ).rows.find((row) => row.id !== null),
  );
  const { key } = await createApiKey(store.db, { name: 'contract', scopes: ['ingest'] });
  const code = await insertAccessCode(store.db, {
    displayName: 'Seeded library',
    slug: 'seeded-library',
    description: '',
    cookieTtlHours: 24,
    isActive: true,
  });
  return {
    isbn: HUNGER_GAMES.isbn13,
    bookId: Number(book.id),
    bookSlug,
    destination,
    listId: list.id,
    editToken: list.edit_token,
    sfid: Number(logged.id),
    ingestKey: key,
    accessCode: code.slug,
  };
}

/** Row counts of every table of the store. */
export async function tableCounts(store: Store): Promise<Record<string, number>> {
  const tables = await store.db.introspection.getTables();
  const counts: Record<string, number> = {};
  for (const table of tables) {
    if (table.name.startsWith('kysely_')) continue;
    const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.name)}`.execute(
      store.db,
    );
    counts[table.name] = Number(row.rows[0]?.n ?? 0);
  }
  return counts;
}
