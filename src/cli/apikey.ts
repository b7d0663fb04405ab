import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { CLI_ACTOR } from '../services/admin/commands.js';
import { AdminKeys, type ApiKey } from '../services/admin/keys.js';
import { ChangeEvents } from '../services/change-events.js';
import { openStore } from '../store/db.js';
import { migrateToLatest } from '../store/migrate.js';

export const APIKEY_USAGE = `Usage:
  booklink apikey create --name NAME [--scope ingest]   print a new key (shown once)
  booklink apikey list                                  keys by prefix; never the keys themselves
  booklink apikey revoke <prefix|id>                    refuse the key from now on (running servers within 30 s)`;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: CliOutput = { out: (line) => console.log(line), err: (line) => console.error(line) };

// The same audited use cases as the admin area's keys page: every create and revoke leaves an audit row.
type Subcommand = (keys: AdminKeys, args: string[], io: CliOutput) => Promise<number>;

async function create(keys: AdminKeys, args: string[], io: CliOutput): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, scope: { type: 'string', multiple: true } },
  });
  if (!values.name?.trim()) {
    io.err('booklink apikey create: --name is required (at most 200 characters)');
    return 2;
  }
  const scopes = values.scope ?? [];
  const result = await keys.create(CLI_ACTOR, values.name, scopes);
  if (!result.ok) {
    for (const [field, message] of Object.entries(result.errors))
      io.err(`booklink apikey create: --${field}: ${message}`);
    return 2;
  }
  const { key, apiKey } = result.value;
  // The key alone on stdout, so `KEY=$(booklink apikey create --name app)` works; the rest on stderr.
  io.out(key);
  io.err(
    `created key ${apiKey.id} "${apiKey.name}" (prefix ${apiKey.prefix}, scopes: ${scopes.join(',') || 'none'})`,
  );
  io.err('store it now: only its hash is kept, it cannot be shown again');
  return 0;
}

function describe(key: ApiKey): string {
  const status = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
  return [
    String(key.id).padEnd(5),
    key.prefix.padEnd(9),
    status.padEnd(32),
    (key.scopes.join(',') || '-').padEnd(8),
    (key.lastUsedAt ?? 'never').padEnd(25),
    key.name,
  ].join(' ');
}

async function list(area: AdminKeys, _args: string[], io: CliOutput): Promise<number> {
  const { keys } = await area.overview();
  if (keys.length === 0) {
    io.out('no API keys; create one with: booklink apikey create --name NAME');
    return 0;
  }
  io.out(
    [
      'id'.padEnd(5),
      'prefix'.padEnd(9),
      'status'.padEnd(32),
      'scopes'.padEnd(8),
      'last used'.padEnd(25),
      'name',
    ].join(' '),
  );
  for (const key of keys) io.out(describe(key));
  return 0;
}

async function revoke(keys: AdminKeys, args: string[], io: CliOutput): Promise<number> {
  const ref = args[0]?.trim();
  if (!ref) {
    io.err('booklink apikey revoke: give the key prefix (from `apikey list`) or its id');
    return 2;
  }
  const outcome = await keys.revoke(CLI_ACTOR, ref);
  switch (outcome.kind) {
    case 'revoked':
      io.out(`revoked key ${outcome.apiKey.id} (${outcome.apiKey.prefix}, "${outcome.apiKey.name}")`);
      return 0;
    case 'already_revoked':
      io.out(
        `key ${outcome.apiKey.id} (${outcome.apiKey.prefix}) was already revoked at ${outcome.apiKey.revokedAt}`,
      );
      return 0;
    case 'ambiguous':
      io.err(
        `booklink apikey revoke: "${ref}" matches keys ${outcome.matches.map((key) => key.id).join(', ')}; use the id`,
      );
      return 1;
    case 'not_found':
      io.err(`booklink apikey revoke: no key with prefix or id "${ref}"`);
      return 1;
  }
}

const SUBCOMMANDS: Record<string, Subcommand> = { create, list, revoke };

/** `booklink apikey …`; returns the exit code. The database is migrated first, like `import`. */
export async function runApiKeyCommand(args: string[], io: CliOutput = consoleOutput): Promise<number> {
  const [name, ...rest] = args;
  const subcommand = name ? SUBCOMMANDS[name] : undefined;
  if (!subcommand) {
    io.err(APIKEY_USAGE);
    return 2;
  }
  const store = openStore(loadConfig());
  try {
    await migrateToLatest(store);
    return await subcommand(new AdminKeys(store.db, new ChangeEvents()), rest, io);
  } finally {
    await store.close();
  }
}
