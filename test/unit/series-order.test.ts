import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dedupeByIsbn } from '../../src/catalog/chain.js';
import { googleVolumeToRecord } from '../../src/catalog/providers/googlebooks.js';
import { openLibrarySearchDocToRecord } from '../../src/catalog/providers/openlibrary.js';
import type { BookRecord } from '../../src/catalog/types.js';
import { parseQuery, type TextQuery } from '../../src/domain/query.js';
import { remoteCandidate } from '../../src/services/search/candidates.js';
import {
  SERIES_AUTHOR_LIMIT,
  seriesAsked,
  seriesQuestion,
  volumeByOrder,
} from '../../src/services/search/series-order.js';

const COVERS = 'https://covers.openlibrary.org';
const AUTHOR = ['Mara Quill'];

/** A valid ISBN-13 for a test number (978, nine digits, the check digit). */
function isbn13(n: number): string {
  const body = `978${String(n).padStart(9, '0')}`;
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * A search.json work document as Open Library sends it for `fields=key,title,author_name,
 * first_publish_year,isbn,edition_count,…`: the work's first publication year, no series (the
 * search index has no series field: openlibrary/plugins/worksearch/schemes/works.py `all_fields`).
 */
function olWork(id: number, title: string, year: number, authors = AUTHOR): BookRecord {
  const record = openLibrarySearchDocToRecord(
    {
      key: `/works/OL${id}W`,
      title,
      author_name: authors,
      first_publish_year: year,
      edition_count: 12,
      edition_key: [`OL${id}M`],
      isbn: [isbn13(id)],
      language: ['eng'],
    },
    COVERS,
  );
  assert.ok(record);
  return record;
}

/** A Google volume whose subtitle prints its series ("Ashfall Chronicles, Book 1"), dated by its edition. */
function googleVolume(id: string, title: string, subtitle: string, publishedDate: string): BookRecord {
  const record = googleVolumeToRecord({
    kind: 'books#volume',
    id,
    volumeInfo: { title, subtitle, authors: AUTHOR, publishedDate, language: 'en', printType: 'BOOK' },
  });
  assert.ok(record);
  return record;
}

const candidates = (records: BookRecord[]) => records.map((record, i) => remoteCandidate(record, `t.${i}`));
const query = (text: string) => {
  const parsed = parseQuery(text);
  assert.equal(parsed.kind, 'text');
  return parsed as TextQuery;
};

/** The series asked and the volume read from the author's works (`complete`: shorter than asked). */
function volume(text: string, found: BookRecord[], works: BookRecord[], complete = true) {
  const placed = candidates(found);
  const asked = seriesAsked(query(text), placed);
  if (!asked) return { asked, volume: null };
  return { asked, volume: volumeByOrder(asked, placed, candidates(works), complete) };
}

const first = googleVolume('a1', 'The Ember Gate', 'Ashfall Chronicles, Book 1', '2013-04-18');
const third = googleVolume('a3', 'The Last Lantern', 'Ashfall Chronicles, Book 3', '2015-10-20');
const author = [
  olWork(11, 'The Ember Gate', 2013),
  olWork(12, 'The Salt Crown', 2014),
  olWork(13, 'The Last Lantern', 2015),
];

describe('a series volume read from its order of first publication', () => {
  it('asks the author of the placed volumes, and takes the one work published between volumes 1 and 3 as volume 2', () => {
    const { asked, volume: found } = volume('ashfall chronicles 2', [first, third], author);
    assert.deepEqual(asked, {
      name: 'Ashfall Chronicles',
      words: 'ashfall chronicles',
      wanted: 2,
      author: 'Mara Quill',
    });
    assert.deepEqual(asked && seriesQuestion(asked), {
      text: '',
      author: 'Mara Quill',
      limit: SERIES_AUTHOR_LIMIT,
    });
    assert.equal(found?.candidate.title, 'The Salt Crown');
    assert.equal(found?.series, 'Ashfall Chronicles, #2');
  });

  it('takes the only work before a placed volume 2 as volume 1', () => {
    const second = googleVolume('a2', 'The Salt Crown', 'Ashfall Chronicles, Book 2', '2014-03-01');
    const { volume: found } = volume('ashfall chronicles book 1', [second], author);
    assert.equal(found?.candidate.title, 'The Ember Gate');
  });

  it('reads the years of first publication, not a later edition’s date', () => {
    // Google dates the paperback of volume 1 after volume 2 was first published; Open Library's
    // first_publish_year of the same work (same ISBN, merged by the provider chain) puts it first.
    const paperback = googleVolume('p1', 'The Ember Gate', 'Ashfall Chronicles, Book 1', '2014-09-02');
    const [merged] = dedupeByIsbn([olWork(11, 'The Ember Gate', 2013), { ...paperback, isbn13: isbn13(11) }]);
    assert.equal(merged?.firstPublishYear, 2013);
    assert.ok(merged);
    const { volume: found } = volume('ashfall chronicles 2', [merged, third], author);
    assert.equal(found?.candidate.title, 'The Salt Crown');
  });

  it('leaves out works another series claims', () => {
    const other = googleVolume('o1', 'Night Orchard', 'The Vale Quartet, Book 1', '2014-06-01');
    const { volume: found } = volume('ashfall chronicles 2', [first, third], [...author, other]);
    assert.equal(found?.candidate.title, 'The Salt Crown');
  });

  it('guesses nothing when the order does not account for every work', () => {
    const standalone = olWork(14, 'A Winter Census', 2014);
    const cases: Array<[string, BookRecord[], BookRecord[], boolean]> = [
      // Two works between volumes 1 and 3: either could be volume 2.
      [
        'ashfall chronicles 2',
        [first, third],
        [...author.slice(0, 2), standalone, author[2] as BookRecord],
        true,
      ],
      // Another work in the year of volume 3: it could be before or after it.
      ['ashfall chronicles 2', [first, third], [...author, olWork(15, 'Harbour Songs', 2015)], true],
      // A volume after every placed one: the author's next book may be anything.
      ['ashfall chronicles 4', [first, third], author, true],
      // The author's answer filled the page: works may be missing from it.
      ['ashfall chronicles 2', [first, third], author, false],
      // A work of unknown year could fall anywhere.
      [
        'ashfall chronicles 2',
        [first, third],
        [...author, { ...olWork(16, 'Tide Tables', 2000), firstPublishYear: undefined, publishedDate: null }],
        true,
      ],
    ];
    for (const [text, found, works, complete] of cases) {
      const result = volume(text, found, works, complete);
      assert.ok(result.asked, text);
      assert.equal(result.volume, null, text);
    }
  });

  it('guesses nothing when the placed volumes are out of publication order', () => {
    // A prequel numbered 1 written after volume 3: numbers and years disagree.
    const prequel = googleVolume('q1', 'Before the Ash', 'Ashfall Chronicles, Book 1', '2019-01-01');
    assert.equal(volume('ashfall chronicles 2', [prequel, third], author).volume, null);
  });

  it('names the series as a note in a title prints it', () => {
    const noted = (id: string, title: string, date: string) => {
      const record = googleVolumeToRecord({
        id,
        volumeInfo: { title, authors: AUTHOR, publishedDate: date },
      });
      assert.ok(record);
      return record;
    };
    const found = [
      noted('n1', 'The Ember Gate (Ashfall Chronicles, #1)', '2013'),
      noted('n3', 'The Last Lantern (Ashfall Chronicles Book 3)', '2015'),
    ];
    const { asked, volume: placed } = volume('ashfall chronicles 2', found, author);
    assert.equal(asked?.name, 'Ashfall Chronicles');
    assert.equal(placed?.candidate.title, 'The Salt Crown');
  });

  it('asks nothing when the volume is already placed, or when no author is shared', () => {
    const second = googleVolume('a2', 'The Salt Crown', 'Ashfall Chronicles, Book 2', '2014-03-01');
    assert.equal(seriesAsked(query('ashfall chronicles 2'), candidates([first, second, third])), null);
    assert.equal(seriesAsked(query('ashfall chronicles'), candidates([first, third])), null);
    const byOther = googleVolumeToRecord({
      id: 'x3',
      volumeInfo: {
        title: 'The Last Lantern',
        subtitle: 'Ashfall Chronicles, Book 3',
        authors: ['Ida Brun'],
      },
    });
    assert.ok(byOther);
    assert.equal(seriesAsked(query('ashfall chronicles 2'), candidates([first, byOther])), null);
  });
});

describe('first publication on provider records', () => {
  it('keeps Open Library’s first_publish_year of the work, and the earliest through a merge', () => {
    const record = olWork(21, 'The Ember Gate', 2013);
    assert.equal(record.firstPublishYear, 2013);
    const [merged] = dedupeByIsbn([
      {
        ...googleVolume('g', 'The Ember Gate', 'Ashfall Chronicles, Book 1', '2016-02-01'),
        isbn13: isbn13(21),
      },
      record,
    ]);
    assert.equal(merged?.firstPublishYear, 2013);
    assert.equal(merged?.publishedDate, '2016-02-01');
  });
});
