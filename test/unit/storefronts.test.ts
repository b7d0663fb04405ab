import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDestinationUrl, type Destination, isAllowedRedirect } from '../../src/domain/links.js';
import { acceptLanguageCountry, forCountry, readerCountry } from '../../src/domain/storefronts.js';

const amazon: Destination = {
  id: 2,
  slug: 'amazon',
  displayName: 'Amazon',
  shortName: 'Amazon',
  description: '',
  group: 'new',
  urlTemplate: 'https://www.amazon.com/dp/{isbn10} || https://www.amazon.com/s?k={title_author}&i=stripbooks',
  baseUrl: 'https://www.amazon.com',
  iconUrl: '',
  brandColor: '',
  displayPriority: 90,
  isActive: true,
  isPublic: true,
  affiliateParam: 'tag',
  affiliateTag: 'row-us-20',
};
const book = {
  title: 'Pride and Prejudice',
  authors: ['Jane Austen'],
  isbn13: '9780141439518',
  isbn10: '0141439513',
};

describe('country storefronts', () => {
  it('sends a reader in Britain to amazon.co.uk with the British tag only', () => {
    const tags = { amazon: 'us-20', 'amazon.GB': 'uk-21' };
    const uk = forCountry(amazon, 'GB');
    assert.equal(
      buildDestinationUrl(uk, book, { affiliateTags: tags }),
      'https://www.amazon.co.uk/dp/0141439513?tag=uk-21',
    );
    assert.equal(
      buildDestinationUrl(forCountry(amazon, 'DE'), book, { affiliateTags: tags }),
      'https://www.amazon.de/dp/0141439513',
    );
    assert.equal(
      buildDestinationUrl(forCountry(amazon, 'US'), book, { affiliateTags: tags }),
      'https://www.amazon.com/dp/0141439513?tag=us-20',
    );
  });

  it('lets /go/ follow a storefront only for its own destination', () => {
    const uk = forCountry(amazon, 'GB');
    assert.ok(isAllowedRedirect('https://www.amazon.co.uk/dp/0141439513', uk));
    assert.ok(!isAllowedRedirect('https://www.amazon.co.uk/dp/0141439513', amazon));
  });

  it('keeps destinations without a storefront as they are', () => {
    const other = { ...amazon, slug: 'worldcat' };
    assert.equal(forCountry(other, 'GB'), other);
    assert.equal(forCountry(amazon, null), amazon);
  });

  it('reads the country from the query, a CDN header, then the browser language', () => {
    assert.equal(readerCountry('gb', { 'cf-ipcountry': 'DE' }), 'GB');
    assert.equal(readerCountry(undefined, { 'cf-ipcountry': 'DE', 'accept-language': 'en-GB' }), 'DE');
    assert.equal(
      readerCountry(undefined, { 'cf-ipcountry': 'XX', 'accept-language': 'fr-CA,fr;q=0.8' }),
      'CA',
    );
    assert.equal(readerCountry(undefined, { 'accept-language': '*' }), null);
    assert.equal(acceptLanguageCountry('de,en-GB;q=0.7'), 'GB');
    assert.equal(acceptLanguageCountry('zh-Hant-TW'), null);
  });
});
