#!/usr/bin/env node
// Part of `npm run lint`: request schemas in src/http/routes use the shared `Integer` of
// src/http/validation.ts, never TypeBox's own `Type.Integer`, which lets `Infinity` through as an
// integer (issue 11). Response schemas (presenters) may use `Type.Integer`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const problems = [];
for (const file of files('src/http/routes')) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.includes('Type.Integer('))
        problems.push(`${file}:${index + 1}: use Integer() from src/http/validation.ts`);
    });
}
if (problems.length > 0) {
  console.error(`check-schemas: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('check-schemas: every route integer refuses non-finite numbers');
