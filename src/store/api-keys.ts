import { createHash, randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { parseJsonArray } from '../domain/json.js';
import { nowIso } from './db.js';
import type { ApiKeyTable, Db } from './schema.js';

/**
 * API keys: `bl_` + 32 random base62 characters (~190 bits). Only a SHA-256 of the key is stored: the
 * keys are long random secrets, so a fast unsalted hash cannot be brute-forced and a lookup stays one
 * indexed equality. The first 8 characters are kept in clear so lists and revocations can name a key.
 */
type ApiKeyRow = Selectable<ApiKeyTable>;

export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** What a request knows about the key it carries. */
export interface ApiKeyIdentity {
  id: number;
  name: string;
  scopes: readonly string[];
}

export const API_KEY_PATTERN = /^bl_[0-9A-Za-z]{32}$/;
export const API_KEY_PREFIX_LENGTH = 8;
export const API_KEY_SCOPES = ['ingest'] as const;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Rejection sampling: bytes ≥ 248 are skipped so every character is equally likely. */
export function generateApiKey(): string {
  let body = '';
  while (body.length < 32) {
    for (const byte of randomBytes(40)) {
      if (byte < 248 && body.length < 32) body += BASE62[byte % 62];
    }
  }
  return `bl_${body}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function rowToApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    name: row.name,
    prefix: row.key_prefix,
    scopes: parseJsonArray(row.scopes),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Creates a key; the clear key is returned here once and never stored. */
export async function createApiKey(
  db: Db,
  input: { name: string; scopes: readonly string[] },
): Promise<{ key: string; apiKey: ApiKey }> {
  const key = generateApiKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      name: input.name,
      key_prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
      key_hash: hashApiKey(key),
      scopes: JSON.stringify([...new Set(input.scopes)].sort()),
      created_at: nowIso(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { key, apiKey: rowToApiKey(row) };
}

export async function listApiKeys(db: Db): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('id').execute();
  return rows.map(rowToApiKey);
}

/** The key behind a clear key, if it exists and is not revoked. */
export async function findActiveApiKey(db: Db, key: string): Promise<ApiKeyIdentity | null> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'scopes'])
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: Number(row.id), name: row.name, scopes: parseJsonArray(row.scopes) } : null;
}

export type RevokeOutcome =
  | { kind: 'revoked'; apiKey: ApiKey }
  | { kind: 'already_revoked'; apiKey: ApiKey }
  | { kind: 'not_found' }
  | { kind: 'ambiguous'; matches: ApiKey[] };

/** `ref` is a numeric id, the 8-character prefix shown by `list`, or the full key. */
export async function revokeApiKey(db: Db, ref: string): Promise<RevokeOutcome> {
  const query = db.selectFrom('api_keys').selectAll();
  const rows = /^\d+$/.test(ref)
    ? await query.where('id', '=', Number(ref)).execute()
    : API_KEY_PATTERN.test(ref)
      ? await query.where('key_hash', '=', hashApiKey(ref)).execute()
      : await query.where('key_prefix', '=', ref).execute();
  const [row] = rows;
  if (!row) return { kind: 'not_found' };
  if (rows.length > 1) return { kind: 'ambiguous', matches: rows.map(rowToApiKey) };
  if (row.revoked_at) return { kind: 'already_revoked', apiKey: rowToApiKey(row) };
  const revokedAt = nowIso();
  await db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', row.id).execute();
  return { kind: 'revoked', apiKey: { ...rowToApiKey(row), revokedAt } };
}

/** Records when keys were last seen; called in batches by the usage recorder, never per request. */
export async function touchApiKeys(db: Db, lastUsed: ReadonlyMap<number, string>): Promise<void> {
  for (const [id, at] of lastUsed) {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
