import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  audiobookMatches,
  googleOffers,
  itunesAudiobookOffers,
  itunesOffers,
  type OfferTarget,
  openLibraryOffers,
} from '../../src/catalog/offers.js';
import { currentOffers, formatPrice, type Offer, staleSources } from '../../src/domain/offers.js';

const ISBN = '9780007525546';
const HAIL_MARY: OfferTarget = {
  isbn13: '9780593135204',
  title: 'Project Hail Mary',
  subtitle: 'A Novel',
  authors: ['Andy Weir'],
};

/** Bodies no parser may throw on: wrong types everywhere a field is read. */
const ODD_BODIES: unknown[] = [
  null,
  undefined,
  0,
  'text',
  [],
  [null, 1, 'x'],
  {},
  { items: 'no' },
  { items: [null, 1, 'x', []] },
  { items: [{ volumeInfo: { industryIdentifiers: [{ identifier: ISBN }] }, saleInfo: 'x', accessInfo: 7 }] },
  {
    items: [
      {
        volumeInfo: { industryIdentifiers: [{ identifier: ISBN }] },
        saleInfo: { saleability: 'FOR_SALE', retailPrice: { amount: 'x', currencyCode: 5 } },
      },
    ],
  },
  { results: [{ kind: 'ebook', price: 'nine', currency: null, trackViewUrl: 5 }] },
  { results: [{ wrapperType: 'audiobook', collectionPrice: -1, currency: 'usd' }] },
  { items: [{ match: 'exact', status: 5, itemURL: {} }] },
  { records: {}, items: { status: 'lendable' } },
];

describe('offer answers', () => {
  it('never throw on any body, and find nothing in an odd one', () => {
    for (const body of ODD_BODIES) {
      assert.deepEqual(googleOffers(body, ISBN, 'GB'), [], JSON.stringify(body));
      assert.deepEqual(itunesOffers(body, 'GB'), [], JSON.stringify(body));
      assert.deepEqual(openLibraryOffers(body), [], JSON.stringify(body));
      assert.deepEqual(itunesAudiobookOffers(body, 'GB', null), [], JSON.stringify(body));
      assert.deepEqual(itunesAudiobookOffers(body, 'GB', HAIL_MARY), [], JSON.stringify(body));
    }
  });

  it('read Google saleInfo: the retail price, FREE, NOT_FOR_SALE, a neighbour volume ignored, foreign links dropped', () => {
    const volume = (isbn: string, saleInfo: unknown, accessInfo: unknown = {}) => ({
      id: 'vol12345',
      volumeInfo: { industryIdentifiers: [{ type: 'ISBN_13', identifier: isbn }] },
      saleInfo,
      accessInfo,
    });
    const sale = {
      country: 'GB',
      saleability: 'FOR_SALE',
      listPrice: { amount: 9.99, currencyCode: 'GBP' },
      retailPrice: { amount: 7.99, currencyCode: 'GBP' },
      buyLink: 'https://play.google.com/store/books/details?id=vol12345&rdid=book-vol12345&rdot=1',
    };
    const [offer] = googleOffers(
      { items: [volume('9780000000001', { saleability: 'FREE' }), volume(ISBN, sale)] },
      ISBN,
      'GB',
    );
    assert.deepEqual(offer, {
      source: 'googlebooks',
      country: 'GB',
      kind: 'ebook',
      state: 'for_sale',
      amount: 7.99,
      currency: 'GBP',
      url: sale.buyLink,
    });
    const evil = googleOffers(
      { items: [volume(ISBN, { ...sale, buyLink: 'https://evil.example/x' })] },
      ISBN,
      'GB',
    );
    assert.equal(evil[0]?.url, 'https://play.google.com/store/books/details?id=vol12345');
    assert.equal(
      googleOffers({ items: [volume(ISBN, { saleability: 'FREE' })] }, ISBN, 'US')[0]?.state,
      'free',
    );
    assert.equal(
      googleOffers({ items: [volume(ISBN, { saleability: 'NOT_FOR_SALE' })] }, ISBN, 'FR')[0]?.state,
      'not_for_sale',
    );
    assert.deepEqual(googleOffers({ items: [volume(ISBN, { saleability: 'FOR_SALE' })] }, ISBN, 'JP'), []);
  });

  it('read iTunes prices: ebook and audiobook, 0 as free, no price as nothing, only Apple links', () => {
    const offers = itunesOffers(
      {
        resultCount: 3,
        results: [
          {
            kind: 'ebook',
            price: 6.99,
            currency: 'GBP',
            trackViewUrl: 'https://books.apple.com/gb/book/x/id1?uo=4',
          },
          {
            wrapperType: 'audiobook',
            collectionPrice: 0,
            currency: 'GBP',
            collectionViewUrl: 'https://evil.example/x',
          },
          { kind: 'ebook', currency: 'GBP' },
        ],
      },
      'GB',
    );
    assert.deepEqual(
      offers.map((offer) => [offer.kind, offer.state, offer.amount, offer.url]),
      [
        ['ebook', 'for_sale', 6.99, 'https://books.apple.com/gb/book/x/id1?uo=4'],
        ['audiobook', 'free', null, null],
      ],
    );
  });

  it('take an audiobook the iTunes search answered only when its title and author are the book’s', () => {
    // Shaped as the real Search API lists audiobooks: no kind, no trackId, Apple's edition note.
    const audiobook = (name: string, artist: string, id: number, price = 14.99) => ({
      wrapperType: 'audiobook',
      artistId: 1,
      collectionId: id,
      artistName: artist,
      collectionName: name,
      collectionCensoredName: name,
      collectionViewUrl: `https://books.apple.com/gb/audiobook/x/id${id}?uo=4`,
      collectionPrice: price,
      collectionExplicitness: 'notExplicit',
      trackCount: 1,
      country: 'GBR',
      currency: 'GBP',
    });
    assert.ok(audiobookMatches(audiobook('Project Hail Mary (Unabridged)', 'Andy Weir', 1), HAIL_MARY));
    assert.ok(audiobookMatches(audiobook('Project Hail Mary [Abridged]', 'Andy Weir', 1), HAIL_MARY));
    assert.ok(
      audiobookMatches(audiobook('Project Hail Mary: A Novel (Unabridged)', 'Andy Weir', 1), HAIL_MARY),
      'the title with its subtitle',
    );
    assert.ok(
      audiobookMatches(audiobook('Pride and Prejudice', 'Jane Austen', 1), {
        isbn13: null,
        title: 'Pride and Prejudice',
        authors: ['Austen, Jane'],
      }),
    );
    assert.ok(!audiobookMatches(audiobook('Project Hail Mary (Unabridged)', 'Ann Other', 1), HAIL_MARY));
    assert.ok(!audiobookMatches(audiobook('Project Hail Mary Summary', 'Andy Weir', 1), HAIL_MARY));
    assert.ok(
      !audiobookMatches(audiobook('Project Hail Mary', 'Andy Weir', 1), { ...HAIL_MARY, authors: [] }),
    );

    const body = {
      resultCount: 3,
      results: [
        {
          kind: 'ebook',
          trackId: 5,
          trackName: 'Project Hail Mary',
          artistName: 'Andy Weir',
          price: 6.99,
          currency: 'GBP',
        },
        audiobook('Project Hail Mary (Unabridged)', 'Summaries Ltd', 7, 2.99),
        audiobook('Project Hail Mary (Unabridged)', 'Andy Weir', 9, 19.99),
      ],
    };
    assert.deepEqual(
      itunesAudiobookOffers(body, 'GB', HAIL_MARY).map((offer) => [offer.kind, offer.amount, offer.url]),
      [['audiobook', 19.99, 'https://books.apple.com/gb/audiobook/x/id9?uo=4']],
      'the search: the first audiobook that is this book, never the ebook nor a namesake',
    );
    assert.deepEqual(
      itunesAudiobookOffers(body, 'GB', null).map((offer) => offer.amount),
      [2.99],
      'the lookup by id: its audiobook',
    );
  });

  it('read Open Library lending: exact items only, the best state first', () => {
    const item = (status: string, match = 'exact') => ({
      match,
      status,
      'ol-edition-id': 'OL123M',
      itemURL: 'https://archive.org/details/x',
    });
    assert.deepEqual(openLibraryOffers([]), []);
    assert.equal(
      openLibraryOffers({ items: [item('checked out'), item('lendable')] })[0]?.state,
      'borrow_now',
    );
    assert.equal(
      openLibraryOffers({ items: [item('checked out')] })[0]?.url,
      'https://openlibrary.org/books/OL123M',
    );
    assert.deepEqual(openLibraryOffers({ items: [item('restricted'), item('full access', 'similar')] }), []);
  });
});

describe('offers shown', () => {
  const now = Date.parse('2026-12-02T12:00:00Z');
  const offer = (country: string, readAt: string): Offer => ({
    source: 'googlebooks',
    country,
    kind: 'ebook',
    state: 'for_sale',
    amount: 7.99,
    currency: 'GBP',
    url: null,
    readAt,
  });

  it('are the reader’s country’s, and none older than the time to live', () => {
    const offers = [
      offer('GB', '2026-12-02T11:00:00Z'),
      offer('DE', '2026-12-02T11:00:00Z'),
      offer('FR', '2026-11-30T11:00:00Z'),
    ];
    assert.deepEqual(
      currentOffers(offers, 'GB', now, 86_400_000).map((item) => item.country),
      ['GB'],
    );
    assert.deepEqual(currentOffers(offers, 'FR', now, 86_400_000), []);
    assert.deepEqual(currentOffers(offers, 'US', now, 86_400_000), []);
    assert.deepEqual(
      staleSources(
        [{ source: 'googlebooks', country: 'GB', readAt: '2026-12-02T11:00:00Z' }],
        ['googlebooks', 'itunes'],
        'GB',
        now,
        86_400_000,
      ),
      ['itunes'],
    );
  });

  it('format prices for the page’s language and the reader’s country', () => {
    assert.equal(formatPrice(7.99, 'GBP', 'en', 'GB'), '£7.99');
    assert.equal(formatPrice(8.99, 'EUR', 'de', 'DE'), '8,99\u00a0€');
    assert.equal(formatPrice(1200, 'JPY', 'ja', 'JP'), '￥1,200');
    assert.equal(formatPrice(5, 'XQQ1', 'en', null), '5 XQQ1');
  });
});
