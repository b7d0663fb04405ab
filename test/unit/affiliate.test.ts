import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operatorTags, tagKindOf, tagSlots } from '../../src/domain/affiliate.js';
import { buildDestinationUrl, type Destination } from '../../src/domain/links.js';
import { forCountry } from '../../src/domain/storefronts.js';
import { storefrontList as storefronts } from '../../src/services/affiliate-tags.js';

const base = {
  shortName: '',
  description: '',
  group: 'new',
  iconUrl: '',
  brandColor: '',
  displayPriority: 90,
  isActive: true,
  isPublic: true,
  affiliateTag: '',
  countries: [],
  storefronts: {},
} as const;
const amazon: Destination = {
  ...base,
  id: 2,
  slug: 'amazon',
  displayName: 'Amazon',
  urlTemplate: 'https://www.amazon.com/dp/{isbn10}',
  baseUrl: 'https://www.amazon.com',
  affiliateParam: 'tag',
  storefronts: {
    GB: { baseUrl: 'https://www.amazon.co.uk', template: 'https://www.amazon.co.uk/dp/{isbn10}' },
    DE: { baseUrl: 'https://www.amazon.de', template: 'https://www.amazon.de/dp/{isbn10}' },
  },
};
const bookshop: Destination = {
  ...base,
  id: 1,
  slug: 'bookshop',
  displayName: 'Bookshop.org',
  urlTemplate: 'https://bookshop.org/a/{affiliate}/{isbn13} || https://bookshop.org/book/{isbn13}',
  baseUrl: 'https://bookshop.org',
  affiliateParam: '',
};
const audible: Destination = {
  ...base,
  id: 19,
  slug: 'audible',
  displayName: 'Audible',
  urlTemplate: 'https://www.audible.com/search?keywords={title_author}',
  baseUrl: 'https://www.audible.com',
  affiliateParam: '',
  storefronts: {
    GB: {
      baseUrl: 'https://www.audible.co.uk',
      template: 'https://www.audible.co.uk/search?keywords={title_author}',
    },
  },
};
const book = { title: 'Emma', authors: ['Jane Austen'], isbn13: '9780141439587', isbn10: '0141439580' };

describe('affiliate tags', () => {
  it('lets AFFILIATE_TAGS override the tags set in the admin area', () => {
    const tags = operatorTags({ amazon: 'env-20' }, [
      { destinationSlug: 'amazon', country: null, tag: 'stored-20' },
      { destinationSlug: 'amazon', country: 'GB', tag: 'stored-21' },
    ]);
    assert.deepEqual({ ...tags }, { amazon: 'env-20', 'amazon.GB': 'stored-21' });
  });

  it("tells whose tag a URL carries: the operator's, a partner's, or none", () => {
    const operator = { amazon: 'op-20', 'amazon.GB': 'opuk-21', bookshop: '4242' };
    const uk = forCountry(amazon, 'GB');
    const url = (d: Destination, tags: Record<string, string>) =>
      buildDestinationUrl(d, book, { affiliateTags: tags }) ?? '';
    assert.equal(tagKindOf(url(uk, operator), uk, operator, null), 'operator');
    assert.equal(tagKindOf(url(uk, {}), uk, operator, null), 'none');
    const partner = { 'amazon.GB': 'partner-21' };
    assert.equal(tagKindOf(url(uk, { ...operator, ...partner }), uk, operator, partner), 'partner');
    // A tag in the path (Bookshop.org's /a/{affiliate}/), not in a parameter.
    assert.equal(tagKindOf(url(bookshop, operator), bookshop, operator, null), 'operator');
    assert.equal(tagKindOf(url(bookshop, {}), bookshop, {}, null), 'none');
  });

  it('lists every store and storefront with its tag, its source and whether it can carry one', () => {
    const slots = tagSlots([amazon, audible], storefronts, { 'amazon.DE': 'env-21' }, [
      { destinationId: 2, country: 'GB', tag: 'here-21' },
    ]);
    const find = (slug: string, country: string | null) =>
      slots.find((slot) => slot.destination.slug === slug && slot.country === country);
    assert.equal(
      slots.filter((slot) => slot.destination.slug === 'amazon').length,
      1 + storefronts(amazon).length,
    );
    assert.deepEqual(find('amazon', 'GB')?.effective, { tag: 'here-21', source: 'admin' });
    assert.equal(find('amazon', 'GB')?.baseUrl, 'https://www.amazon.co.uk');
    assert.deepEqual(find('amazon', 'DE')?.effective, { tag: 'env-21', source: 'environment' });
    assert.equal(find('amazon', null)?.effective, null);
    assert.equal(find('audible', null)?.canCarry, false);
    assert.equal(find('audible', 'GB')?.canCarry, false);
  });
});
