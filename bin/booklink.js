#!/usr/bin/env node
// Runs the built CLI; in a source checkout without a build, runs the TypeScript through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli.js');
if (existsSync(built)) {
  await import(built);
} else {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(root, 'src', 'cli.ts'), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(result.status ?? 1);
}
