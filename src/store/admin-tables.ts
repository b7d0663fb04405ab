import type { Generated, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Tables of migration 0005, typed here so the admin area owns its schema. */
export type AdminTables = {
  admin_users: {
    id: Generated<number>;
    email: string;
    password_hash: string;
    role: string;
    is_active: Generated<number>;
    failed_attempts: Generated<number>;
    locked_until: string | null;
    last_login_at: string | null;
    created_at: string;
    updated_at: string;
  };
  admin_sessions: {
    id: Generated<number>;
    token_hash: string;
    user_id: number;
    csrf_token: string;
    ip: string | null;
    user_agent: string | null;
    expires_at: string;
    created_at: string;
  };
  admin_login_attempts: {
    id: Generated<number>;
    ip: string;
    email: string;
    success: number;
    created_at: string;
  };
  /** Migration 0010: failed sign-ins per `account:<email>` and `ip:<address>` in a 15-minute window. */
  admin_login_throttle: { key: string; failures: number; window_started_at: string };
  audit_log: {
    id: Generated<number>;
    user_id: number | null;
    user_email: string;
    action: string;
    entity_type: string;
    entity_id: string;
    before_json: string | null;
    after_json: string | null;
    created_at: string;
  };
  click_daily: { day: string; dimension: string; key: string; clicks: number };
  click_rollup_state: { id: number; rolled_until: string | null };
  /** Migration 0003 (search engineer); read and written here for pins and analytics only. */
  search_pins: {
    id: Generated<number>;
    query_key: string;
    book_id: number;
    notes: string;
    created_at: string;
  };
  searches: {
    id: Generated<number>;
    query: string;
    query_key: string;
    result_count: number;
    source: string | null;
    created_at: string;
  };
  search_misses: { id: Generated<number>; query: string; result_count: number; created_at: string };
  search_votes: { id: Generated<number>; sfid: number; feedback: string; created_at: string };
};

export type AdminDatabase = Database & AdminTables;
export type AdminDb = Kysely<AdminDatabase>;

/** The same connection, typed with the admin tables too. */
export const adminDb = (db: Kysely<Database>): AdminDb => db.withTables<AdminTables>();

/** Admin tables are a superset, so the shared repositories (books, destinations) accept the same handle. */
export const baseDb = (db: AdminDb): Kysely<Database> => db as unknown as Kysely<Database>;
