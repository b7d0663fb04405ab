#!/usr/bin/env node
// Runs the built CLI; in a source checkout without a build, runs the TypeScript through tsx. A command
// that needs V8 flags of its own (node-flags.js) runs in a child process started with them.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeFlags } from './node-flags.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli.js');
const args = process.argv.slice(2);
const flags = nodeFlags(args[0]).filter((flag) => !process.execArgv.includes(flag));
if (existsSync(built) && flags.length === 0) {
  await import(built);
} else {
  const entry = existsSync(built) ? [built] : ['--import', 'tsx', join(root, 'src', 'cli.ts')];
  const child = spawn(process.execPath, [...flags, ...entry, ...args], { stdio: 'inherit' });
  // Signals sent to this process alone (a service manager's stop) reach the command too.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  });
}
