import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { CLI_ACTOR } from '../services/admin/commands.js';
import { AdminUsers } from '../services/admin/users.js';
import { ChangeEvents } from '../services/change-events.js';
import { openStore } from '../store/db.js';
import { migrateToLatest } from '../store/migrate.js';
import { isRole } from '../store/users.js';

export const ADMIN_USAGE = `Usage: booklink admin create-user --email E --role admin|editor [--password P]
  Without --password the password is read from stdin (prompted, not echoed, on a terminal).`;

/** Reads one line: hidden on a terminal, the first line of piped input otherwise. */
async function readPassword(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  if (process.stdin.isTTY) {
    process.stdout.write('Password: ');
    // Keep typed characters off the screen; readline still collects them.
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => undefined;
  }
  const line = await new Promise<string>((resolve) => {
    rl.once('line', resolve);
    rl.once('close', () => resolve(''));
  });
  rl.close();
  if (process.stdin.isTTY) process.stdout.write('\n');
  return line;
}

export async function runAdminCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create-user') {
    console.error(ADMIN_USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      role: { type: 'string', default: 'editor' },
      password: { type: 'string' },
    },
  });
  if (!values.email || !values.role || !isRole(values.role)) {
    console.error(ADMIN_USAGE);
    return 2;
  }
  const password = values.password ?? (await readPassword());
  const store = openStore(loadConfig());
  try {
    await migrateToLatest(store);
    const users = new AdminUsers(store.db, new ChangeEvents());
    const result = await users.create(CLI_ACTOR, { email: values.email, password, role: values.role });
    if (!result.ok) {
      for (const [field, message] of Object.entries(result.errors))
        console.error(`booklink admin: ${field}: ${message}`);
      return 1;
    }
    console.log(`created ${result.value.role} ${result.value.email}`);
    return 0;
  } finally {
    await store.close();
  }
}
