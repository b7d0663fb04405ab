import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { googleSeriesInfo, googleVolumeToRecord } from '../../src/catalog/providers/googlebooks.js';
import { itunesResultToRecord } from '../../src/catalog/providers/itunes.js';
import {
  openLibraryDataToRecord,
  openLibrarySearchDocToRecord,
} from '../../src/catalog/providers/openlibrary.js';
import { parseQuery, type TextQuery } from '../../src/domain/query.js';
import { type RankInput, rankCandidates, workGroupKey } from '../../src/domain/ranking.js';
import { namingSubtitle } from '../../src/domain/subtitles.js';
import { planProviderSearch } from '../../src/services/search/plans.js';

/**
 * Bodies shaped as the real APIs send them (Open Library's Books API `jscmd=data` and search.json,
 * Google's volumes, the iTunes Search API), from their documentation and answers recorded in public
 * projects' fixtures; the books themselves are invented. Each quirk is one that answer carries and the
 * local fakes never used to.
 */
const COVERS = 'https://covers.openlibrary.org';

describe('Open Library answers', () => {
  it('derives the ISBN-13 of an edition that lists only isbn_10, and the ISBN-10 of one with only isbn_13', () => {
    // Older editions list only `isbn_10`; the Books API then has no `isbn_13` key at all.
    const older = openLibraryDataToRecord({
      url: 'https://openlibrary.org/books/OL7034567M/The_Quiet_Orchard',
      key: '/books/OL7034567M',
      title: 'The Quiet Orchard',
      authors: [{ url: 'https://openlibrary.org/authors/OL61234A/Mara_Linden', name: 'Mara Linden' }],
      identifiers: { isbn_10: ['0140449132'], openlibrary: ['OL7034567M'] },
      publishers: [{ name: 'Penguin Books' }],
      publish_date: '1998',
    });
    assert.equal(older?.isbn13, '9780140449136');
    assert.equal(older?.isbn10, '0140449132');
    const newer = openLibraryDataToRecord({
      key: '/books/OL31234567M',
      title: 'The Quiet Orchard',
      identifiers: { isbn_13: ['9780140449136'], openlibrary: ['OL31234567M'] },
    });
    assert.equal(newer?.isbn10, '0140449132');
  });

  it('reads an empty identifiers object, and a Markdown description in a {type, value} object as plain text', () => {
    const record = openLibraryDataToRecord({
      key: '/books/OL27000001M',
      title: 'Lanterns over Brume',
      identifiers: {},
      description: {
        type: '/type/text',
        value:
          '**Lanterns over Brume** follows a ferry pilot through one winter.\r\n\r\n' +
          '----------\r\nAlso contained in:\r\n\r\n' +
          ' - [The Brume Trilogy](https://openlibrary.org/works/OL20000001W)\r\n' +
          ' - [Northern Tales](https://openlibrary.org/works/OL20000002W)',
      },
    });
    assert.ok(record);
    assert.equal(record.isbn13, null);
    assert.equal(
      record.description,
      'Lanterns over Brume follows a ferry pilot through one winter.\n\nAlso contained in:\n\n' +
        '• The Brume Trilogy\n• Northern Tales',
    );
  });

  it('answers the edition the index chose, not the first of the unordered isbn and language lists', () => {
    // search.json with `fields=…,editions,…&lang=en`: the work lists every edition's ISBNs and
    // languages in no order; `editions.docs[0]` is the edition matching the query and language.
    const doc = {
      key: '/works/OL15000001W',
      title: 'The Salt Road',
      author_name: ['Ines Varga'],
      first_publish_year: 2011,
      edition_count: 14,
      isbn: ['9783442471003', '3442471001', '9780307401182', '0307401189', '9788408099000'],
      language: ['ger', 'eng', 'spa'],
      cover_i: 6001234,
      editions: {
        numFound: 14,
        start: 0,
        numFoundExact: true,
        docs: [
          {
            key: '/books/OL24000001M',
            title: 'The Salt Road',
            language: ['eng'],
            isbn: ['0307401189', '9780307401182'],
            cover_i: 6004321,
          },
        ],
      },
    };
    const record = openLibrarySearchDocToRecord(doc, COVERS);
    assert.equal(record?.isbn13, '9780307401182');
    assert.equal(record?.language, 'en');
    assert.equal(record?.identifiers.ol_edition, 'OL24000001M');
    assert.equal(record?.coverUrl, `${COVERS}/b/id/6004321-L.jpg`);
    // Without a chosen edition the lists decide nothing: no ISBN, no language picked among several.
    const { editions: _, ...bare } = doc;
    const unchosen = openLibrarySearchDocToRecord(bare, COVERS);
    assert.equal(unchosen?.isbn13, null);
    assert.equal(unchosen?.language, null);
  });

  it('names the chosen edition by its own title, not the work’s original one', () => {
    const record = openLibrarySearchDocToRecord(
      {
        key: '/works/OL15000002W',
        title: 'La Route du sel',
        author_name: ['Ines Varga'],
        edition_count: 31,
        isbn: ['9782070000012', '9780307401182'],
        language: ['fre', 'eng'],
        editions: {
          numFound: 9,
          start: 0,
          numFoundExact: true,
          docs: [
            { key: '/books/OL24000002M', title: 'The Salt Road', language: ['eng'], isbn: ['9780307401182'] },
          ],
        },
      },
      COVERS,
    );
    assert.equal(record?.title, 'The Salt Road');
    assert.equal(record?.isbn13, '9780307401182');
  });

  it('keeps edition_count 0 of a stub work without ISBN, cover or author', () => {
    const record = openLibrarySearchDocToRecord(
      { key: '/works/OL39000001W', title: 'The Salt Road', edition_count: 0 },
      COVERS,
    );
    assert.equal(record?.editionCount, 0);
    assert.deepEqual(record?.authors, []);
    assert.equal(record?.coverUrl, null);
  });
});

describe('Google Books answers', () => {
  const volume = {
    kind: 'books#volume',
    id: 'q9XbEAAAQBAJ',
    etag: 'Xq1v2b3n4m5',
    selfLink: 'https://www.googleapis.com/books/v1/volumes/q9XbEAAAQBAJ',
    volumeInfo: {
      title: 'Winter Harbour \u0096 A Crossing',
      authors: ['Oskar Bren'],
      publisher: 'Harbour House',
      publishedDate: '2013-12-31T23:00:00Z',
      description:
        '<p><b>A NATIONAL BESTSELLER</b></p><p>From the author of <i>North Light</i> \u0097 a crossing in winter.<br>One night, one ferry.</p><script>track()</script>',
      industryIdentifiers: [
        { type: 'ISBN_13', identifier: '9780307401182' },
        { type: 'ISBN_10', identifier: '0307401189' },
      ],
      readingModes: { text: true, image: false },
      pageCount: 0,
      printType: 'BOOK',
      maturityRating: 'NOT_MATURE',
      language: 'en',
      infoLink: 'https://play.google.com/store/books/details?id=q9XbEAAAQBAJ&source=gbs_api',
      canonicalVolumeLink: 'https://books.google.co.uk/books/about/Winter_Harbour.html?hl=&id=q9XbEAAAQBAJ',
    },
    saleInfo: {
      country: 'GB',
      saleability: 'FOR_SALE',
      isEbook: true,
      listPrice: { amount: 9.99, currencyCode: 'GBP' },
      retailPrice: { amount: 4.99, currencyCode: 'GBP' },
      buyLink:
        'https://play.google.com/store/books/details?id=q9XbEAAAQBAJ&rdid=book-q9XbEAAAQBAJ&rdot=1&source=gbs_api',
      offers: [
        {
          finskyOfferType: 1,
          listPrice: { amountInMicros: 9990000, currencyCode: 'GBP' },
          retailPrice: { amountInMicros: 4990000, currencyCode: 'GBP' },
        },
      ],
    },
    accessInfo: { country: 'GB', viewability: 'PARTIAL', embeddable: true, publicDomain: false },
  };

  it('removes C1 control characters, reading the dash mojibake as the dash it was', () => {
    const record = googleVolumeToRecord(volume);
    assert.equal(record?.title, 'Winter Harbour – A Crossing');
    assert.doesNotMatch(record?.description ?? '', /[\u0080-\u009f]/);
  });

  it('renders an HTML description as safe plain text', () => {
    assert.equal(
      googleVolumeToRecord(volume)?.description,
      'A NATIONAL BESTSELLER\n\nFrom the author of North Light — a crossing in winter.\nOne night, one ferry.',
    );
  });

  it('reads a publishedDate with a time zone as the day it stands for; pageCount 0 is no page count', () => {
    // Midnight of 1 January in Central Europe, written in UTC.
    const record = googleVolumeToRecord(volume);
    assert.equal(record?.publishedDate, '2014-01-01');
    assert.equal(record?.pages, null);
  });
});

describe('Google series data', () => {
  // Shaped as Google sends `seriesInfo` for a volume of one of its series (an ISSUE or a
  // COLLECTED_EDITION): an id and a number, never the series name.
  const volume = {
    kind: 'books#volume',
    id: 'aB3xEAAAQBAJ',
    volumeInfo: {
      title: 'The Glass Orchard',
      authors: ['Tove Brandt'],
      industryIdentifiers: [{ type: 'ISBN_13', identifier: '9780000003027' }],
      language: 'en',
      seriesInfo: {
        kind: 'books#volume_series_info',
        bookDisplayNumber: '2',
        volumeSeries: [{ seriesId: 'zBgqGwAAABDnAM', seriesBookType: 'ISSUE', orderNumber: 2 }],
      },
    },
    saleInfo: { country: 'IL', saleability: 'NOT_FOR_SALE', isEbook: false },
  };

  it('reads the series id and the volume’s number', () => {
    assert.deepEqual(googleVolumeToRecord(volume)?.providerSeries, { id: 'zBgqGwAAABDnAM', number: 2 });
    // Not a series note: Google gives no name to show.
    assert.equal(googleVolumeToRecord(volume)?.identifiers.series, undefined);
  });

  it('takes the display number when the order number is missing, and nothing without an id', () => {
    assert.deepEqual(
      googleSeriesInfo({
        kind: 'books#volume_series_info',
        shortSeriesBookTitle: 'Volume 1',
        bookDisplayNumber: '1',
        volumeSeries: [{ seriesId: 'i9gsGwAAABCmwM', seriesBookType: 'COLLECTED_EDITION' }],
      }),
      { id: 'i9gsGwAAABCmwM', number: 1 },
    );
    assert.equal(googleSeriesInfo({ kind: 'books#volume_series_info', bookDisplayNumber: '3' }), null);
    assert.equal(
      googleVolumeToRecord({ ...volume, volumeInfo: { title: 'Solo' } })?.providerSeries,
      undefined,
    );
  });
});

describe('iTunes answers', () => {
  const ebook = {
    artistIds: [1601234567],
    artistId: 1601234567,
    artistName: 'Martin Luther King, Jr.',
    kind: 'ebook',
    trackId: 1589012345,
    trackName: 'Letters from the Road',
    releaseDate: '2016-07-30T15:00:00Z',
    formattedPrice: '¥1,100',
    price: 1100,
    currency: 'JPY',
    genres: ['History', 'Books'],
    genreIds: ['9015', '38'],
    artworkUrl100:
      'https://is1-ssl.mzstatic.com/image/thumb/Publication125/v4/aa/bb/cc/aabbcc/cover.jpg/100x100bb.jpg',
    trackViewUrl: 'https://books.apple.com/jp/book/letters-from-the-road/id1589012345?uo=4',
    description: 'Letters written on the road.',
  };

  it('keeps one artist with a comma in the name as one author, and splits a joined name by its artistIds', () => {
    assert.deepEqual(itunesResultToRecord(ebook)?.authors, ['Martin Luther King, Jr.']);
    const two = { ...ebook, artistIds: [1601234567, 1609876543], artistName: 'Ada Quill & Bram Fenwick' };
    assert.deepEqual(itunesResultToRecord(two)?.authors, ['Ada Quill', 'Bram Fenwick']);
  });

  it('reads a release date given as a Tokyo midnight in UTC as that day, without ratings in the item', () => {
    assert.equal(itunesResultToRecord(ebook)?.publishedDate, '2016-07-31');
  });
});

type C = RankInput & { id: string };

function c(id: string, title: string, extra: Partial<RankInput> = {}): C {
  return {
    id,
    title,
    authors: ['Ines Varga'],
    format: null,
    language: 'en',
    groupKey: workGroupKey(title, ['Ines Varga']) ?? id,
    popularity: 10_000,
    clicks: 0,
    pinned: false,
    saved: false,
    hasCover: true,
    ...extra,
  };
}

const q = (text: string) => parseQuery(text) as TextQuery;

describe('ranking provider answers', () => {
  it('never puts a stub (no ISBN, or no edition) ahead of a real edition', () => {
    // The stub names the query exactly and is known to the catalog; the real edition only adds a subtitle.
    const stub = c('stub', 'The Salt Road', {
      popularity: 5_000,
      stub: true,
      groupKey: 'stub',
      hasCover: false,
    });
    const real = c('real', 'The Salt Road: A Novel', { popularity: 10, groupKey: 'real' });
    assert.equal(rankCandidates(q('the salt road'), [stub, real])[0]?.best.id, 'real');
  });

  it('shows the edition in the language of a query written in its own script', () => {
    const english = c('en', 'Shōkyokusei Design', { groupKey: 'w', popularity: 50_000 });
    const japanese = c('ja', '消極性デザイン宣言', { groupKey: 'w', language: 'ja' });
    assert.equal(rankCandidates(q('消極性デザイン宣言'), [english, japanese])[0]?.best.id, 'ja');
  });
});

describe('subtitles that name another book', () => {
  it('names a volume, but not a description or a series note', () => {
    assert.equal(namingSubtitle('The Return of the King'), 'the return of the king');
    assert.equal(namingSubtitle('The Story of Success'), 'the story of success');
    for (const describing of [
      'A Novel',
      '25th Anniversary Edition',
      'Maze Runner, Book Two',
      'Discworld #3',
      null,
    ]) {
      assert.equal(namingSubtitle(describing), null, String(describing));
    }
  });
});

describe('text sent to the providers', () => {
  it('keeps a Japanese title whole: voiced kana marks stay on their letters', () => {
    for (const typed of ['消極性デザイン宣言', '消極性テ\u3099サ\u3099イン宣言', '消極性ﾃﾞｻﾞｲﾝ宣言']) {
      const plan = planProviderSearch(q(typed), null);
      assert.equal(plan.strict[0]?.text, '消極性デザイン宣言', typed);
    }
  });
});
