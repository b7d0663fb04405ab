import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  alternativeKind,
  type BookLink,
  type BookLinkInput,
  buildDestinationUrl,
  buildLinkGroups,
  type Destination,
  fillTemplate,
  isAllowedRedirect,
  isBookLinkActive,
  type LinkBook,
  parseSlugList,
  resolveLink,
  templateProblems,
} from '../../src/domain/links.js';

let nextId = 1;
function destination(overrides: Partial<Destination> & Pick<Destination, 'slug'>): Destination {
  return {
    id: nextId++,
    displayName: overrides.slug,
    shortName: '',
    description: '',
    group: 'new',
    urlTemplate: '',
    baseUrl: '',
    iconUrl: '',
    brandColor: '',
    displayPriority: 0,
    isActive: true,
    isPublic: true,
    affiliateParam: '',
    affiliateTag: '',
    countries: [],
    storefronts: {},
    ...overrides,
  };
}

const amazon = destination({
  slug: 'amazon',
  baseUrl: 'https://www.amazon.com',
  urlTemplate: 'https://www.amazon.com/dp/{isbn10} || https://www.amazon.com/s?k={title_author}&i=stripbooks',
  affiliateParam: 'tag',
  displayPriority: 90,
});
const bookshop = destination({
  slug: 'bookshop',
  baseUrl: 'https://bookshop.org',
  urlTemplate: 'https://bookshop.org/a/{affiliate}/{isbn13} || https://bookshop.org/book/{isbn13}',
  displayPriority: 100,
});
const gutenberg = destination({
  slug: 'gutenberg',
  group: 'free',
  urlTemplate: 'https://www.gutenberg.org/ebooks/{gutenberg}',
});
const standardEbooks = destination({
  slug: 'standard-ebooks',
  group: 'free',
  urlTemplate: 'https://standardebooks.org/ebooks/{standard_ebooks}',
});
const worldcat = destination({
  slug: 'worldcat',
  group: 'library',
  urlTemplate: 'https://search.worldcat.org/search?q=bn:{isbn13}',
});
const abebooks = destination({
  slug: 'abebooks',
  group: 'used',
  urlTemplate: 'https://www.abebooks.com/servlet/SearchResults?isbn={isbn13}',
});

const pride: LinkBook = {
  title: 'Pride and Prejudice',
  authors: ['Austen, Jane'],
  isbn13: '9780141439518',
  isbn10: '0141439513',
};
const newBook: LinkBook = {
  title: 'Dune: Part Two & More (Dune, #2)',
  authors: ['Frank Herbert'],
  isbn13: '9798888888881',
  isbn10: null,
};

function input(overrides: Partial<BookLinkInput> = {}): BookLinkInput {
  return {
    book: pride,
    identifiers: {},
    bookLinks: [],
    overrides: [],
    now: new Date('2025-06-01T12:00:00Z'),
    ...overrides,
  };
}

function curated(destinationId: number, overrides: Partial<BookLink> = {}): BookLink {
  return {
    id: nextId++,
    destinationId,
    url: '',
    label: '',
    tagline: '',
    featured: false,
    displayPriority: 0,
    activeFrom: null,
    activeUntil: null,
    ...overrides,
  };
}

describe('URL templates', () => {
  it('fills identifiers into the first alternative', () => {
    assert.equal(buildDestinationUrl(amazon, pride), 'https://www.amazon.com/dp/0141439513');
    assert.equal(
      buildDestinationUrl(worldcat, pride),
      'https://search.worldcat.org/search?q=bn:9780141439518',
    );
  });

  it('falls back to a title+author search for a 979 ISBN, which has no ISBN-10', () => {
    const url = buildDestinationUrl(amazon, newBook);
    assert.equal(url, 'https://www.amazon.com/s?k=Dune%3A+Part+Two+%26+More+Frank+Herbert&i=stripbooks');
    assert.equal(new URL(url ?? '').searchParams.get('k'), 'Dune: Part Two & More Frank Herbert');
  });

  it('encodes path values path-safe and query values query-safe', () => {
    const values = { title: 'A/B ?x#y' };
    assert.equal(fillTemplate('https://x.test/s/{title}', values), 'https://x.test/s/A%2FB%20%3Fx%23y');
    assert.equal(fillTemplate('https://x.test/s?q={title}', values), 'https://x.test/s?q=A%2FB+%3Fx%23y');
  });

  it('keeps multi-segment Standard Ebooks ids but refuses ids that climb out of the path', () => {
    const ok = buildDestinationUrl(standardEbooks, {
      ...pride,
      identifiers: { standard_ebooks: 'jane-austen/pride-and-prejudice' },
    });
    assert.equal(ok, 'https://standardebooks.org/ebooks/jane-austen/pride-and-prejudice');
    const bad = buildDestinationUrl(standardEbooks, {
      ...pride,
      identifiers: { standard_ebooks: '../../evil' },
    });
    assert.equal(bad, null);
  });

  it('flips "Surname, Given" and drops series notes for searches', () => {
    const search = destination({ slug: 's', urlTemplate: 'https://x.test/s?q={title_author}&a={author}' });
    const url = new URL(
      buildDestinationUrl(search, { ...pride, title: 'Catching Fire (The Hunger Games, #2)' }) ?? '',
    );
    assert.equal(url.searchParams.get('q'), 'Catching Fire Jane Austen');
    assert.equal(url.searchParams.get('a'), 'Jane Austen');
  });

  it('gives no link when no alternative can be filled', () => {
    assert.equal(buildDestinationUrl(gutenberg, pride), null);
    assert.equal(buildDestinationUrl(abebooks, { ...pride, isbn13: null }), null);
    assert.equal(buildDestinationUrl(destination({ slug: 'empty' }), pride), null);
  });

  it('links free sources only when a source confirmed the identifier', () => {
    const url = buildDestinationUrl(gutenberg, { ...pride, identifiers: { gutenberg: '1342' } });
    assert.equal(url, 'https://www.gutenberg.org/ebooks/1342');
  });
});

describe('affiliate tags', () => {
  it('adds the tag parameter from the destination row', () => {
    const tagged = { ...amazon, affiliateTag: 'rowtag-20' };
    assert.equal(buildDestinationUrl(tagged, pride), 'https://www.amazon.com/dp/0141439513?tag=rowtag-20');
  });

  it("lets the operator's configuration win and replaces a tag already in the URL", () => {
    const tagged = {
      ...amazon,
      affiliateTag: 'rowtag-20',
      urlTemplate: 'https://www.amazon.com/dp/{isbn10}?tag=someoneelse-20',
    };
    const url = buildDestinationUrl(tagged, pride, { affiliateTags: { amazon: 'operator-20' } });
    assert.equal(url, 'https://www.amazon.com/dp/0141439513?tag=operator-20');
  });

  it('uses the {affiliate} alternative only when there is a tag', () => {
    assert.equal(buildDestinationUrl(bookshop, pride), 'https://bookshop.org/book/9780141439518');
    const url = buildDestinationUrl(bookshop, pride, { affiliateTags: { bookshop: '12345' } });
    assert.equal(url, 'https://bookshop.org/a/12345/9780141439518');
  });
});

describe('overrides and curated links', () => {
  it('replaces the built URL and tags it when the override is on the destination host', () => {
    const link = resolveLink(
      amazon,
      input({ overrides: [{ retailerKey: 'amazon', overrideUrl: 'https://amazon.com/dp/B000FAKE?ref=x' }] }),
      { affiliateTags: { amazon: 'op-20' } },
    );
    assert.equal(link?.url, 'https://amazon.com/dp/B000FAKE?ref=x&tag=op-20');
  });

  it('does not put the tag on a foreign host', () => {
    const link = resolveLink(
      amazon,
      input({ overrides: [{ retailerKey: 'amazon', overrideUrl: 'https://publisher.example/buy' }] }),
      { affiliateTags: { amazon: 'op-20' } },
    );
    assert.equal(link?.url, 'https://publisher.example/buy');
  });

  it('ignores overrides for other destinations and invalid override URLs', () => {
    const overrides = [
      { retailerKey: 'bookshop', overrideUrl: 'https://bookshop.org/x' },
      { retailerKey: 'amazon', overrideUrl: 'javascript:alert(1)' },
    ];
    assert.equal(resolveLink(amazon, input({ overrides }))?.url, 'https://www.amazon.com/dp/0141439513');
  });

  it('counts a curated link only inside its active window', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    const at = (activeFrom: string | null, activeUntil: string | null) =>
      isBookLinkActive(curated(1, { activeFrom, activeUntil }), now);
    assert.equal(at(null, null), true);
    assert.equal(at('2025-05-01', '2025-06-01'), true, 'a bare until date includes that day');
    assert.equal(at('2025-06-02', null), false);
    assert.equal(at(null, '2025-05-31T23:59:59Z'), false);
    assert.equal(at('', ''), true, 'empty form fields mean no bound');
    assert.equal(at('not a date', null), false);
  });

  it('takes URL, label, tagline and featured from the active curated link', () => {
    const links = [
      curated(abebooks.id, {
        url: 'https://www.abebooks.com/signed-copy',
        label: 'Signed',
        tagline: 'Only 3 left',
        featured: true,
      }),
      curated(abebooks.id, { url: 'https://www.abebooks.com/old', activeUntil: '2020-01-01' }),
    ];
    const link = resolveLink(abebooks, input({ bookLinks: links }));
    assert.deepEqual(
      { url: link?.url, label: link?.label, tagline: link?.tagline, featured: link?.featured },
      {
        url: 'https://www.abebooks.com/signed-copy',
        label: 'Signed',
        tagline: 'Only 3 left',
        featured: true,
      },
    );
  });
});

describe('link groups', () => {
  const kobo = destination({
    slug: 'kobo',
    group: 'ebook',
    urlTemplate: 'https://www.kobo.com/search?query={isbn13}',
  });
  const patronLibrary = destination({
    slug: 'patron-library',
    group: 'library',
    isPublic: false,
    urlTemplate: 'https://catalog.library.test/search?isbn={isbn13}',
  });
  const retired = destination({
    slug: 'retired',
    isActive: false,
    urlTemplate: 'https://retired.test/{isbn13}',
  });
  const all = [abebooks, worldcat, kobo, amazon, bookshop, gutenberg, patronLibrary, retired];
  const slugsOf = (groups: ReturnType<typeof buildLinkGroups>) =>
    groups.map((group) => `${group.group}:${group.links.map((link) => link.destination.slug).join(',')}`);

  it('orders groups canonically and links by priority, leaving out empty groups and inactive destinations', () => {
    const groups = buildLinkGroups({ ...input(), destinations: all });
    assert.deepEqual(slugsOf(groups), [
      'new:bookshop,amazon',
      'used:abebooks',
      'ebook:kobo',
      'library:worldcat',
    ]);
    assert.equal(groups[0]?.title, 'Buy new');
  });

  it('moves the `use` destination and its group first', () => {
    const groups = buildLinkGroups({ ...input(), destinations: all }, { use: 'amazon' });
    assert.deepEqual(slugsOf(groups)[0], 'new:amazon,bookshop');
    const kobos = buildLinkGroups({ ...input(), destinations: all }, { use: 'kobo' });
    assert.deepEqual(slugsOf(kobos), [
      'ebook:kobo',
      'new:bookshop,amazon',
      'used:abebooks',
      'library:worldcat',
    ]);
  });

  it('pins `top` destinations in order and ignores unknown slugs', () => {
    const groups = buildLinkGroups(
      { ...input(), destinations: all },
      { top: parseSlugList('nope, WorldCat,abebooks'), use: 'unknown' },
    );
    assert.deepEqual(slugsOf(groups), [
      'library:worldcat',
      'used:abebooks',
      'new:bookshop,amazon',
      'ebook:kobo',
    ]);
  });

  it('puts featured curated links first within their group', () => {
    const bookLinks = [curated(amazon.id, { featured: true, label: 'Preorder' })];
    const groups = buildLinkGroups({ ...input({ bookLinks }), destinations: all });
    assert.deepEqual(slugsOf(groups)[0], 'new:amazon,bookshop');
    assert.equal(groups[0]?.links[0]?.label, 'Preorder');
  });

  it('shows non-public destinations only to visitors holding access to them', () => {
    const anonymous = buildLinkGroups({ ...input(), destinations: all });
    assert.ok(!slugsOf(anonymous).some((group) => group.includes('patron-library')));
    const patron = buildLinkGroups(
      { ...input(), destinations: all },
      { visitorAccessDestinationIds: new Set([patronLibrary.id]) },
    );
    assert.ok(slugsOf(patron).includes('library:patron-library,worldcat'), 'equal priorities sort by name');
  });
});

describe('redirect allow-list', () => {
  it('accepts the destination hosts, with or without www', () => {
    assert.equal(isAllowedRedirect('https://www.amazon.com/dp/1?tag=x', amazon), true);
    assert.equal(isAllowedRedirect('https://amazon.com/anything', amazon), true);
    assert.equal(isAllowedRedirect('https://bookshop.org/a/1/2', bookshop), true);
  });

  it('refuses foreign hosts, look-alikes, credentials and other schemes', () => {
    assert.equal(isAllowedRedirect('https://evil.example/dp/1', amazon), false);
    assert.equal(isAllowedRedirect('https://amazon.com.evil.example/', amazon), false);
    assert.equal(isAllowedRedirect('https://evilamazon.com/', amazon), false);
    assert.equal(isAllowedRedirect('https://www.amazon.com@evil.example/', amazon), false);
    assert.equal(isAllowedRedirect('javascript:alert(1)', amazon), false);
    assert.equal(isAllowedRedirect('not a url', amazon), false);
  });

  it('accepts the host of an explicit override', () => {
    const explicit = ['https://publisher.example/buy'];
    assert.equal(isAllowedRedirect('https://publisher.example/buy', amazon, explicit), true);
    assert.equal(isAllowedRedirect('https://other.example/buy', amazon, explicit), false);
  });
});

describe('template validation', () => {
  it('accepts good templates and names the problems of bad ones', () => {
    assert.deepEqual(templateProblems(amazon.urlTemplate, 'new'), []);
    assert.match(templateProblems('https://x.test/{nope}', 'new').join(), /unknown placeholder/);
    assert.match(templateProblems('http://x.test/{isbn13}', 'new').join(), /https/);
    assert.match(templateProblems('https://{isbn13}.test/', 'new').join(), /host/);
    assert.match(templateProblems('https://x.test/s?q={title}', 'free').join(), /only identifiers/);
  });
});

describe('link kinds', () => {
  it("tells the book's own page at a store from a search there", () => {
    const product = [
      'https://www.amazon.com/dp/{isbn10}',
      'https://bookshop.org/book/{isbn13}',
      'https://www.barnesandnoble.com/w/?ean={isbn13}',
      'https://www.kinokuniya.co.jp/f/dsg-01-{isbn13}',
      'https://books.apple.com/us/book/id{apple_books}',
      'https://www.gutenberg.org/ebooks/{gutenberg}',
    ];
    const search = [
      'https://www.amazon.com/s?k={title_author}&i=stripbooks',
      'https://www.kobo.com/us/en/search?query={isbn13}',
      'https://www.waterstones.com/books/search/term/{isbn13}',
      'https://www.thalia.de/suche?sq={isbn13}',
      'https://www.barnesandnoble.com/s/{title_author}',
      'https://www.fnac.com/SearchResult/ResultList.aspx?Search={isbn13}',
      'https://open.spotify.com/search/{title_author}/audiobooks',
      'https://www.ebay.com/sch/i.html?_nkw={isbn13}&_sacat=267',
    ];
    for (const template of product) assert.equal(alternativeKind(template), 'product', template);
    for (const template of search) assert.equal(alternativeKind(template), 'search', template);
  });

  it('gives each link the kind of the alternative that produced it', () => {
    const amazonLike = destination({
      slug: 'shop',
      urlTemplate: 'https://shop.example/dp/{isbn10} || https://shop.example/s?k={title_author}',
    });
    const input = { identifiers: {}, bookLinks: [], overrides: [], now: new Date() };
    const withIsbn = {
      title: 'Emma',
      authors: ['Jane Austen'],
      isbn13: '9780141439587',
      isbn10: '0141439580',
    };
    assert.equal(resolveLink(amazonLike, { ...input, book: withIsbn })?.kind, 'product');
    const without = { ...withIsbn, isbn13: null, isbn10: null };
    assert.equal(resolveLink(amazonLike, { ...input, book: without })?.kind, 'search');
  });
});
