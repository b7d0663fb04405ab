import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { googleCover } from '../../src/catalog/providers/googlebooks.js';
import { upscaleArtwork } from '../../src/catalog/providers/itunes.js';
import {
  formatFromText,
  languageCode,
  normaliseDate,
  plainText,
} from '../../src/catalog/providers/normalise.js';

describe('normaliseDate', () => {
  const cases: [string, string | null][] = [
    ['2006', '2006'],
    ['March 2006', '2006-03'],
    ['Mar. 2006', '2006-03'],
    ['2006-03-01', '2006-03-01'],
    ['2006-3', '2006-03'],
    ['2008-07-28T07:00:00Z', '2008-07-28'],
    // A store's local midnight written in UTC is that day; a time without a zone is the day written.
    ['2013-12-31T23:00:00.000Z', '2014-01-01'],
    ['2016-07-30T15:00:00Z', '2016-07-31'],
    ['2014-01-01T00:00:00+01:00', '2014-01-01'],
    ['2008-07-28 07:00:00 +0000', '2008-07-28'],
    ['2008-07-28 23:00:00', '2008-07-28'],
    ['2008-07-28T14:37:12Z', '2008-07-28'],
    ['July 28, 2008', '2008-07-28'],
    ['28 July 2008', '2008-07-28'],
    ['Sept 3rd 1999', '1999-09-03'],
    ['c1998', '1998'],
    ['[1998?]', '1998'],
    ['Mayhem 2001', '2001'],
    ['Published March 2006', '2006-03'],
    ['unknown', null],
    ['', null],
  ];
  for (const [input, expected] of cases) {
    it(`"${input}" → ${expected}`, () => assert.equal(normaliseDate(input), expected));
  }
});

describe('provider field helpers', () => {
  it('maps formats, languages and HTML descriptions', () => {
    assert.equal(formatFromText('Mass Market Paperback'), 'mass-market');
    assert.equal(formatFromText('Hardcover'), 'hardcover');
    assert.equal(formatFromText('Audio CD'), 'audiobook');
    assert.equal(formatFromText('Mystery'), null);
    assert.equal(languageCode('/languages/eng'), 'en');
    assert.equal(languageCode('en-GB'), 'en');
    assert.equal(plainText('<p>One &amp; two<br/>three</p>'), 'One & two\nthree');
  });

  it('cleans Google cover links: https, zoom=1, no page curl', () => {
    const url = googleCover({
      smallThumbnail: 'http://books.google.com/books/content?id=X&img=1&zoom=5&edge=curl',
      thumbnail: 'http://books.google.com/books/content?id=X&img=1&zoom=5&edge=curl&source=gbs_api',
    });
    assert.equal(url, 'https://books.google.com/books/content?id=X&img=1&zoom=1&source=gbs_api');
    assert.equal(googleCover(undefined), null);
  });

  it('upscales iTunes artwork to 600x600', () => {
    assert.equal(
      upscaleArtwork('https://is1-ssl.mzstatic.com/image/thumb/Publication/a/source/100x100bb.jpg'),
      'https://is1-ssl.mzstatic.com/image/thumb/Publication/a/source/600x600bb.jpg',
    );
  });
});
