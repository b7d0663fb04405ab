import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every variable `loadConfig` reads, found by giving it an environment that notes each name asked. */
function variablesRead(): Set<string> {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_target, name) {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  loadConfig(env);
  return read;
}

it('.env.example and the README name every variable the configuration reads', () => {
  const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
  const named = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const variables = [...variablesRead()];
  assert.ok(variables.length > 20, `variables read: ${variables.join(', ')}`);
  assert.deepEqual(
    variables.filter((name) => !named.has(name)),
    [],
    'missing from .env.example',
  );
  assert.deepEqual(
    variables.filter((name) => !readme.includes(`\`${name}\``)),
    [],
    'missing from the README',
  );
});
