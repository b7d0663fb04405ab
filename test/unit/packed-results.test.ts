import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deserialize, serialize } from 'node:v8';
import { type PackedResults, packResult, unpackResults } from '../../src/catalog/import/packed-results.js';
import type { ParseResult } from '../../src/catalog/import/types.js';
import type { NewCatalogEntryRow } from '../../src/store/schema.js';

/** What the worker posts, as the writing thread receives it (a structured clone). */
function roundTrip(results: readonly ParseResult[]): ParseResult[] {
  const packed: PackedResults = [];
  for (const result of results) packResult(result, packed);
  return unpackResults(deserialize(serialize(packed)) as PackedResults);
}

// Every field holds a value no other field holds, so a field read from the wrong place shows.
const ENTRY: Required<Omit<NewCatalogEntryRow, 'id'>> = {
  entry_key: 'isbn:9780306406157',
  source: 'openlibrary',
  isbn13: '9780306406157',
  isbn10: '0306406152',
  title: 'Tab\there, a \\N and ünïcödé 📚',
  subtitle: 'sub',
  authors: '["Ada Quill"]',
  published_date: '2004-03',
  publisher: 'Invented Press',
  cover_url: 'https://covers.test/b/id/7-L.jpg',
  language: 'en',
  format: 'paperback',
  pages: 352,
  description: 'line one\nline two',
  identifiers: '{"goodreads":"4242"}',
  match_key: 'tab here|quill',
  popularity: 0.5,
  updated_at: '2026-01-01T00:00:00.000Z',
  work_key: 'OL10W',
  work_title: 'The work',
  first_year: 1921,
  source_modified: '2024-03-01T10:00:00.000000',
};

describe('packed parse results', () => {
  it('carry every entry field, its links and skips through the worker boundary unchanged', () => {
    const results: ParseResult[] = [
      {
        ok: true,
        entry: ENTRY,
        links: {
          identifiers: [
            ['oclc', '1'],
            ['oclc', '2'],
          ],
          authorKeys: ['OL1A', 'OL2A'],
        },
      },
      { ok: false, reason: 'deleted', removes: 'OL999M' },
      {
        ok: true,
        entry: { ...ENTRY, subtitle: null, pages: null, entry_key: 'b' },
        links: { authorKeys: [] },
      },
      { ok: false, reason: 'invalid_json' },
      { ok: true, entry: { ...ENTRY, entry_key: 'c' }, links: { identifiers: [] } },
      { ok: true, entry: { ...ENTRY, entry_key: 'd' } },
    ];
    assert.deepEqual(roundTrip(results), results);
  });

  it('gives an absent optional field back as null', () => {
    const {
      work_key: _key,
      work_title: _title,
      first_year: _year,
      source_modified: _modified,
      ...base
    } = ENTRY;
    const [back] = roundTrip([{ ok: true, entry: base }]);
    assert.deepEqual(back, {
      ok: true,
      entry: { ...base, work_key: null, work_title: null, first_year: null, source_modified: null },
    });
  });
});
