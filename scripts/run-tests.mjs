#!/usr/bin/env node
// Runs the suite with Node's own test runner (TypeScript through tsx).
// Default: unit + integration (each database test on SQLite and PostgreSQL) + browser tests.
// Flags: --unit, --integration, --browser narrow the run; other arguments are passed on as file filters.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const suites = ['unit', 'integration', 'browser'].filter((suite) => args.includes(`--${suite}`));
const filters = args.filter((arg) => !arg.startsWith('--'));
const chosen = suites.length > 0 ? suites : ['unit', 'integration', 'browser'];

function testFiles(dir) {
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = chosen
  .flatMap((suite) => testFiles(join('test', suite)))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
