import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDestinationUrl, type Destination, isAllowedRedirect } from '../../src/domain/links.js';
import {
  acceptLanguageCountry,
  destinationsFor,
  forCountry,
  readerCountry,
  sellsIn,
} from '../../src/domain/storefronts.js';

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
  countries: [],
  storefronts: {
    GB: {
      baseUrl: 'https://www.amazon.co.uk',
      template:
        'https://www.amazon.co.uk/dp/{isbn10} || https://www.amazon.co.uk/s?k={title_author}&i=stripbooks',
    },
    DE: {
      baseUrl: 'https://www.amazon.de',
      template: 'https://www.amazon.de/dp/{isbn10} || https://www.amazon.de/s?k={title_author}&i=stripbooks',
    },
  },
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
    const other = { ...amazon, slug: 'worldcat', storefronts: {} };
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

  it('after the query, reads the switcher cookie; the operator default comes last', () => {
    const headers = { cookie: 'a=1; booklink_country=ie', 'cf-ipcountry': 'DE' };
    assert.equal(readerCountry(undefined, headers, 'US'), 'IE');
    assert.equal(readerCountry('fr', headers, 'US'), 'FR');
    assert.equal(readerCountry(undefined, { cookie: 'booklink_country=nope' }, 'US'), 'US');
    assert.equal(readerCountry(undefined, {}, null), null);
  });

  it("offers a country's own shops only to its readers, and world-wide stores to everyone", () => {
    const waterstones = { ...amazon, slug: 'waterstones', countries: ['GB', 'IE'], storefronts: {} };
    assert.ok(sellsIn(waterstones, 'IE'));
    assert.ok(!sellsIn(waterstones, 'US'));
    assert.ok(!sellsIn(waterstones, null));
    assert.ok(sellsIn(amazon, 'JP'));
    const forGb = destinationsFor([amazon, waterstones], 'GB');
    assert.deepEqual(
      forGb.map((d) => [d.slug, d.baseUrl]),
      [
        ['amazon', 'https://www.amazon.co.uk'],
        ['waterstones', amazon.baseUrl],
      ],
    );
    assert.deepEqual(
      destinationsFor([amazon, waterstones], 'US').map((d) => d.slug),
      ['amazon'],
    );
  });
});
