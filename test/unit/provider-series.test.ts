import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { googleVolumeToRecord } from '../../src/catalog/providers/googlebooks.js';
import type { BookRecord } from '../../src/catalog/types.js';
import { nameProviderSeries } from '../../src/services/search/provider-series.js';

/** A Google volume as the API sends it, with `seriesInfo` when Google places it in a series. */
function volume(
  id: string,
  title: string,
  series?: { id: string; number: number },
  subtitle?: string,
): BookRecord {
  const record = googleVolumeToRecord({
    kind: 'books#volume',
    id,
    volumeInfo: {
      title,
      ...(subtitle ? { subtitle } : {}),
      authors: ['Garth Nix'],
      language: 'en',
      ...(series
        ? {
            seriesInfo: {
              kind: 'books#volume_series_info',
              bookDisplayNumber: String(series.number),
              volumeSeries: [{ seriesId: series.id, seriesBookType: 'ISSUE', orderNumber: series.number }],
            },
          }
        : {}),
    },
  });
  assert.ok(record);
  return record;
}

const notesOf = (text: string, records: BookRecord[]) => {
  const notes = nameProviderSeries({ text, limit: 20 }, records);
  return records.map((record) => notes.get(record) ?? null);
};

describe('naming a provider’s own series', () => {
  it('names a series by the words asked when several of its volumes answer and one bears them', () => {
    const s = 'p2rcFwAAABB6fM';
    const answer = [
      volume('a', 'Abhorsen', { id: s, number: 3 }),
      volume('b', 'Sabriel', { id: s, number: 1 }),
    ];
    assert.deepEqual(notesOf('abhorsen', answer), [
      { series: 'abhorsen, #3', inferred: false },
      { series: 'abhorsen, #1', inferred: false },
    ]);
  });

  it('takes the name from a member’s own series note before the words asked', () => {
    const s = 'zcorGwAAABDn0M';
    const answer = [
      volume('a', 'Lirael', { id: s, number: 2 }, 'Abhorsen, Book 2'),
      volume('b', 'Clariel', { id: s, number: 4 }),
    ];
    assert.deepEqual(notesOf('garth nix old kingdom', answer), [
      null,
      { series: 'Abhorsen, #4', inferred: false },
    ]);
  });

  it('marks a name only the words asked give as inferred, and leaves a volume its own words found alone', () => {
    const s = 'mdkgGwAAABC4wM';
    assert.deepEqual(notesOf('old kingdom', [volume('a', 'Sabriel', { id: s, number: 1 })]), [
      { series: 'old kingdom, #1', inferred: true },
    ]);
    // "the quiet ledger" finds that volume by its title: the words do not name its series.
    assert.deepEqual(notesOf('the quiet ledger', [volume('b', 'The Quiet Ledger', { id: s, number: 2 })]), [
      null,
    ]);
    assert.deepEqual(notesOf('garth nix', [volume('c', 'Clariel', { id: s, number: 4 })]), [null]);
    assert.deepEqual(notesOf('sabriel', [volume('d', 'Sabriel')]), [null]);
  });
});
