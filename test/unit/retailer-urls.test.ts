import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseIsbn } from '../../src/domain/isbn.js';
import {
  type ParsedRetailerUrl,
  parseRetailerUrl,
  STORE_RULES,
} from '../../src/domain/retailer-urls/index.js';

/**
 * One labelled URL. `store: null` marks input that is not an http(s) URL (the parser returns null).
 * An absent `isbn13` means the URL must yield no ISBN; absent `titleWords`/`country` are not checked.
 */
interface FixtureRow {
  url: string;
  store: string | null;
  expect: {
    kind: ParsedRetailerUrl['kind'];
    isbn13?: string;
    identifiers?: Record<string, string>;
    titleWords?: string | null;
    country?: string | null;
    needsExpansion?: boolean;
  };
}

const FIXTURE = new URL('../fixtures/eval/urls.jsonl', import.meta.url);
const rows: FixtureRow[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as FixtureRow);

/** Every way a parse differs from its label; empty when the row is right. */
function mismatches(row: FixtureRow): string[] {
  const got = parseRetailerUrl(row.url);
  if (row.store === null) return got === null ? [] : [`expected null, got store ${got.store}`];
  if (!got) return ['expected a result, got null'];
  const { expect } = row;
  const problems: string[] = [];
  const check = (field: string, actual: unknown, wanted: unknown) => {
    if (actual !== wanted)
      problems.push(`${field}: got ${JSON.stringify(actual)}, want ${JSON.stringify(wanted)}`);
  };
  check('store', got.store, row.store);
  check('kind', got.kind, expect.kind);
  check('isbn13', got.isbn?.isbn13 ?? null, expect.isbn13 ?? null);
  for (const [scheme, value] of Object.entries(expect.identifiers ?? {})) {
    check(`identifiers.${scheme}`, got.identifiers[scheme], value);
  }
  if ('titleWords' in expect) check('titleWords', got.titleWords, expect.titleWords);
  if ('country' in expect) check('country', got.country, expect.country);
  if ('needsExpansion' in expect) check('needsExpansion', got.needsExpansion, expect.needsExpansion);
  if (/[?&](?:utm_|fbclid|gclid|tag=|qid=|sr=|psc=|keywords=|ref_?=)/i.test(got.canonicalUrl)) {
    problems.push(`canonicalUrl keeps tracking: ${got.canonicalUrl}`);
  }
  return problems;
}

describe('retailer URL fixture (test/fixtures/eval/urls.jsonl)', () => {
  it('is large and varied enough to mean something', () => {
    assert.ok(rows.length >= 300, `${rows.length} rows`);
    const stores = new Set(rows.map((row) => row.store).filter((store) => store && store !== 'unknown'));
    assert.ok(stores.size >= 40, `${stores.size} stores`);
    for (const kind of ['book', 'not_book', 'unknown']) {
      assert.ok(
        rows.some((row) => row.expect.kind === kind && row.store !== null),
        kind,
      );
    }
  });

  it('labels only checksum-valid ISBNs', () => {
    for (const row of rows) {
      if (row.expect.isbn13) assert.equal(parseIsbn(row.expect.isbn13)?.isbn13, row.expect.isbn13, row.url);
    }
  });

  it('parses every labelled URL as labelled, and reports accuracy per store', () => {
    const perStore = new Map<string, { right: number; total: number }>();
    const failures: string[] = [];
    for (const row of rows) {
      const problems = mismatches(row);
      const key = row.store ?? '(invalid)';
      const tally = perStore.get(key) ?? { right: 0, total: 0 };
      tally.total += 1;
      if (problems.length === 0) tally.right += 1;
      else failures.push(`${row.url}\n    ${problems.join('\n    ')}`);
      perStore.set(key, tally);
    }
    const right = [...perStore.values()].reduce((sum, tally) => sum + tally.right, 0);
    const table = [...perStore.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([store, tally]) => `  ${store.padEnd(18)} ${tally.right}/${tally.total}`);
    console.log(`retailer-urls accuracy: ${right}/${rows.length}\n${table.join('\n')}`);
    assert.deepEqual(failures, []);
  });
});

describe('store table', () => {
  it('covers at least 40 stores, each with a recognised page shape', () => {
    const stores = new Set(STORE_RULES.map((rule) => rule.store));
    assert.ok(stores.size >= 40, `${stores.size} stores`);
    for (const rule of STORE_RULES) assert.ok(rule.shortLink || rule.patterns.length > 0, rule.store);
  });
});
