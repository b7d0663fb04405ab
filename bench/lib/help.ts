/**
 * `--help` for every runnable benchmark: imported first, it prints the benchmark's opening comment (what
 * it measures, its command and options) and exits before anything starts. The benchmark's other imports
 * are still resolved, so `npx tsx bench/<folder>/<name>.ts --help` also checks that it loads.
 */
import { readFileSync } from 'node:fs';

if (process.argv.includes('--help') && process.argv[1]) {
  const source = readFileSync(process.argv[1], 'utf8');
  const block = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source)?.[1];
  const text = block
    ? block.replace(/^[ \t]*\* ?/gm, '')
    : (/^(?:\/\/.*\n)+/.exec(source)?.[0] ?? '').replace(/^\/\/ ?/gm, '');
  console.log(text.trim() || `${process.argv[1]}: no description`);
  process.exit(0);
}
