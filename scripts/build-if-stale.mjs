#!/usr/bin/env node
// `npm start`'s first step: compiles src/ into dist/ only when something the build reads is newer than
// the last build (a fresh clone, an edit, a pull), so a start with a current dist/ answers in a moment
// instead of waiting for the compiler.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = join('dist', '.built');
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

let built = 0;
try {
  built = statSync(STAMP).mtimeMs;
} catch {
  // never built
}
const changed = Math.max(...INPUTS.map(newest));
if (built > 0 && changed <= built) process.exit(0);

console.log(built > 0 ? 'Sources changed since the last build: compiling…' : 'First start: compiling…');
const started = Date.now();
const result = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
console.log(`Compiled in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
