import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { audienceOf } from '../../src/domain/audience.js';
import { favouriteSlugs, formatOfGroup, formatsToTry, parseFavourites } from '../../src/domain/favourites.js';
import { goPath } from '../../src/domain/go-links.js';
import { affiliateTagFor, type Destination } from '../../src/domain/links.js';
import {
  normalisePartnerId,
  normaliseSrc,
  partnerTagMap,
  tagsWithPartner,
} from '../../src/domain/partners.js';
import { forCountry } from '../../src/domain/storefronts.js';

const amazon: Destination = {
  id: 1,
  slug: 'amazon',
  displayName: 'Amazon',
  shortName: 'Amazon',
  description: '',
  group: 'new',
  urlTemplate: 'https://www.amazon.com/dp/{isbn10}',
  baseUrl: 'https://www.amazon.com',
  iconUrl: '',
  brandColor: '',
  displayPriority: 0,
  isActive: true,
  isPublic: true,
  affiliateParam: 'tag',
  affiliateTag: 'row-20',
  countries: [],
  storefronts: {
    GB: { baseUrl: 'https://www.amazon.co.uk', template: 'https://www.amazon.co.uk/dp/{isbn10}' },
    DE: { baseUrl: 'https://www.amazon.de', template: 'https://www.amazon.de/dp/{isbn10}' },
    FR: { baseUrl: 'https://www.amazon.fr', template: 'https://www.amazon.fr/dp/{isbn10}' },
  },
};

describe('partner tags', () => {
  const operator = { amazon: 'op-20', 'amazon.GB': 'opuk-21' };
  const partner = partnerTagMap([
    { destinationSlug: 'amazon', country: null, tag: 'p-20' },
    { destinationSlug: 'amazon', country: 'DE', tag: 'pde-21' },
  ]);

  it("uses the partner's tag for its destination and storefront, the operator's elsewhere", () => {
    const tags = tagsWithPartner(operator, partner);
    assert.equal(affiliateTagFor(amazon, { affiliateTags: tags }), 'p-20');
    assert.equal(affiliateTagFor(forCountry(amazon, 'DE'), { affiliateTags: tags }), 'pde-21');
    assert.equal(affiliateTagFor(forCountry(amazon, 'GB'), { affiliateTags: tags }), 'opuk-21');
    assert.equal(affiliateTagFor(forCountry(amazon, 'FR'), { affiliateTags: tags }), null);
  });

  it('leaves the operator tags alone without a partner', () => {
    assert.equal(tagsWithPartner(operator, null), operator);
    assert.equal(affiliateTagFor(amazon, { affiliateTags: tagsWithPartner({}, null) }), 'row-20');
  });

  it('accepts only short URL-safe partner ids and placement words', () => {
    assert.equal(normalisePartnerId(' Acme-Books '), 'acme-books');
    assert.equal(normalisePartnerId('acme books'), null);
    assert.equal(normalisePartnerId('-acme'), null);
    assert.equal(normaliseSrc('Newsletter'), 'newsletter');
    assert.equal(normaliseSrc('a'.repeat(33)), null);
    assert.equal(normaliseSrc('qr code'), null);
  });

  it('builds /go/ paths with every carried parameter encoded', () => {
    assert.equal(goPath('a b', 'amazon'), '/go/a%20b/amazon');
    assert.equal(
      goPath('x', 'kobo', { sfid: 3, country: 'GB', partner: 'acme', src: 'qr' }),
      '/go/x/kobo?sfid=3&country=GB&partner=acme&src=qr',
    );
  });
});

describe('favourite stores', () => {
  it('reads only well-formed choices from the cookie', () => {
    assert.deepEqual(parseFavourites('print:amazon|ebook:kobo|audiobook:libro-fm'), {
      print: 'amazon',
      ebook: 'kobo',
      audiobook: 'libro-fm',
    });
    assert.deepEqual(parseFavourites('print:AMAZON|video:netflix|ebook:|:kobo|ebook:kobo'), {
      ebook: 'kobo',
    });
    assert.deepEqual(parseFavourites(null), {});
  });

  it("tries the book's own format first", () => {
    assert.deepEqual(formatsToTry('Audio CD'), ['audiobook', 'print', 'ebook']);
    assert.deepEqual(formatsToTry('Kindle Edition'), ['ebook', 'print', 'audiobook']);
    assert.deepEqual(formatsToTry('paperback'), ['print', 'ebook', 'audiobook']);
    assert.deepEqual(favouriteSlugs({ ebook: 'kobo', print: 'bookshop' }, null), ['bookshop', 'kobo']);
    assert.equal(formatOfGroup('used'), 'print');
    assert.equal(formatOfGroup('library'), null);
  });
});

describe('audiences', () => {
  it('tells readers, link previews and other bots apart', () => {
    assert.equal(audienceOf('Mozilla/5.0 Chrome/124', false), 'reader');
    assert.equal(audienceOf('Slackbot-LinkExpanding 1.0', true), 'preview');
    assert.equal(audienceOf('facebookexternalhit/1.1', true), 'preview');
    assert.equal(audienceOf('Mozilla/5.0 (compatible; Googlebot/2.1)', true), 'bot');
  });
});
