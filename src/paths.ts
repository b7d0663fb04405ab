import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (the folder holding package.json), from `src/` and from `dist/` alike. */
export function projectRoot(start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'docs'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no project root above ${start}`);
    dir = parent;
  }
}
