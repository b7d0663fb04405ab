/**
 * PostgreSQL's prepared statements, named by SQL text. A query sent without a name is parsed and
 * planned anew on every execution: for a search that was 1.5 ms of the backend's 1.75 ms, against
 * 0.23 ms of running the plans (bench/runs/2026-12-03-run-30.md). A named one is parsed once per
 * connection, and after five executions PostgreSQL may keep a generic plan where it costs no more than
 * the custom ones (`plan_cache_mode`, its default for every prepared statement). Each distinct text
 * with parameters gets a name, up to `capacity` texts a process (a list of ids of another length is
 * another text; a text with its values written in would be a new one each time), then the rest go
 * unnamed. Texts longer than LONGEST_NAMED are not named either: multi-row inserts and bulk `in`
 * lists, whose lengths seldom repeat and whose plans each connection would keep till it closes. A text
 * without parameters is never named: it goes by the simple protocol, which runs several statements in
 * one text (migrations) and which a name would turn away.
 */
const LONGEST_NAMED = 8_000;

export class StatementNames {
  private readonly names = new Map<string, string>();
  /** Texts whose prepared statement PostgreSQL would not run again (see `refuse`). */
  private readonly refused = new Set<string>();
  private stopped = false;

  constructor(private readonly capacity = 500) {}

  /** The name to prepare `text` under, or undefined to send it unnamed. */
  nameOf(text: string, parameters: number): string | undefined {
    if (this.stopped || parameters === 0 || text.length > LONGEST_NAMED || this.refused.has(text))
      return undefined;
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.capacity) return known;
    const name = `booklink_${this.names.size}`;
    this.names.set(text, name);
    return name;
  }

  /** From now on `text` is sent unnamed: its prepared statement failed as only a prepared one can. */
  refuse(text: string): void {
    this.refused.add(text);
  }

  /**
   * From now on every text is sent unnamed: the server lost or mixed up the connection's statements (a
   * pooler in transaction mode that does not keep them). Says so once, with the setting to choose.
   */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    console.warn(
      "postgres: the server does not keep this connection's prepared statements (a connection pooler?): " +
        'statements go unnamed from now on; set DATABASE_PREPARED_STATEMENTS=off to start that way',
    );
  }
}

/**
 * How a prepared statement failed as only a prepared one can, or null for any other error:
 * - `stale`: the table under a `select *` has changed its columns since it was prepared (another
 *   process migrated it), SQLSTATE 0A000 "cached plan must not change result type". The same text
 *   runs unnamed.
 * - `lost`: the server does not have the connection's statements as the client made them, one it
 *   prepared missing (26000) or one it is preparing there already (42P05), as behind a pooler that hands
 *   each transaction another server connection.
 */
export function preparedStatementFailure(error: unknown): 'stale' | 'lost' | null {
  if (!(error instanceof Error)) return null;
  const code = (error as Error & { code?: unknown }).code;
  if (code === '0A000' && /cached plan must not change result type/.test(error.message)) return 'stale';
  if ((code === '26000' || code === '42P05') && /prepared statement/.test(error.message)) return 'lost';
  return null;
}
