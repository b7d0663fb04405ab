import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeBook, type FakeProviders, startFakeProviders } from '../support/fake-providers.js';
import { AdminClient, addUser } from './admin-support.js';

/**
 * Issue 47: prices and lending state on the book page's buttons, read in the background from the
 * (fake) Google Books, iTunes and Open Library answering as the real APIs do.
 */
const PRICED: FakeBook = {
  isbn13: '9780007525546',
  title: 'The Priced Book',
  authors: ['Ada Price'],
  googleId: 'pricedVol01',
  appleId: 733000001,
  offers: {
    google: {
      GB: { saleability: 'FOR_SALE', list: [9.99, 'GBP'], retail: [7.99, 'GBP'] },
      DE: { saleability: 'FOR_SALE', list: [10.99, 'EUR'], retail: [8.99, 'EUR'] },
      US: { saleability: 'FREE' },
      JP: { saleability: 'FOR_SALE', missing: true },
    },
    itunes: {
      GB: { price: 6.99, currency: 'GBP', formattedPrice: '£6.99' },
      DE: { price: 7.99, currency: 'EUR', formattedPrice: '7,99 €' },
      JP: { missing: true },
    },
    openlibrary: 'lendable',
  },
};

/**
 * A print book whose audiobook Apple sells as a product of its own: its own id and name ("(Unabridged)"),
 * which the ISBN lookup never answers; the audiobook search and `lookup?id=` do.
 */
const HEARD: FakeBook = {
  isbn13: '9780007525669',
  title: 'The Heard Book',
  authors: ['Ada Voice'],
  appleId: 733000010,
  appleAudiobook: {
    id: 1552000001,
    prices: {
      GB: { price: 12.99, currency: 'GBP', formattedPrice: '£12.99' },
      DE: { price: 14.99, currency: 'EUR', formattedPrice: '14,99 €' },
    },
  },
  offers: {
    itunes: {
      GB: { price: 5.99, currency: 'GBP', formattedPrice: '£5.99' },
      DE: { price: 6.99, currency: 'EUR', formattedPrice: '6,99 €' },
    },
  },
};

/** What the audiobook search answers first for it: another book's audiobook with the same words. */
const NAMESAKE: FakeBook = {
  isbn13: '9780007525676',
  title: 'The Heard Book: Summary and Analysis',
  authors: ['Ada Voice Press'],
  format: 'audiobook',
  appleId: 1552000099,
  only: ['itunes'],
  offers: {
    itunes: {
      GB: { price: 1.99, currency: 'GBP', formattedPrice: '£1.99' },
      DE: { price: 1.99, currency: 'EUR', formattedPrice: '1,99 €' },
    },
  },
};

const AUDIO = 'apple-books-audiobooks';

const OFFER_ENV = {
  PROVIDERS: 'local,openlibrary,googlebooks,itunes',
  OFFER_SOURCES: 'googlebooks,itunes,openlibrary',
  OFFER_BUDGET_GOOGLEBOOKS: 'off',
  OFFER_BUDGET_ITUNES: 'off',
  OFFER_BUDGET_OPENLIBRARY: 'off',
};

describeEachDialect('offers on the book page', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), { ...fake.env, ...OFFER_ENV });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  async function createBook(book: FakeBook): Promise<string> {
    await addCatalogEntry(context.store(), { isbn13: book.isbn13, title: book.title, authors: book.authors });
    const created = await t.get(`/isbn/${book.isbn13}`);
    const slug = (created.headers.get('location') ?? '').replace('/book/', '');
    assert.ok(slug, `created ${book.isbn13}`);
    return slug;
  }

  const page = async (path: string) => (await t.get(path)).text();
  const offerOn = (html: string, destination: string): string | null => {
    const start = html.indexOf(`data-destination="${destination}"`);
    if (start < 0) return null;
    const end = html.indexOf('</a>', start);
    const button = html.slice(start, end);
    return /class="dest__offer" data-offer="[a-z_]+">([^<]*)</.exec(button)?.[1] ?? null;
  };
  const goLocation = async (path: string) => (await t.get(path)).headers.get('location');

  it('shows each country its own price and link, Free, Borrow now, and nothing where a store does not sell', async () => {
    fake.addBook(PRICED);
    const slug = await createBook(PRICED);
    const first = await page(`/book/${slug}?country=GB`);
    assert.equal(offerOn(first, 'google-play'), null, 'the first visit shows no price: none is stored yet');
    const gb = await eventually(async () => {
      const html = await page(`/book/${slug}?country=GB`);
      return offerOn(html, 'google-play') && offerOn(html, 'apple-books') && offerOn(html, 'open-library')
        ? html
        : undefined;
    });
    assert.equal(offerOn(gb, 'google-play'), '£7.99', 'the retail price, not the list price');
    assert.equal(offerOn(gb, 'apple-books'), '£6.99');
    assert.equal(offerOn(gb, 'open-library'), 'Borrow now');
    assert.match(gb, /class="dest__asof" id="asof-google-play">Price as of [A-Z][a-z]{2} \d{1,2}, \d{4}</);
    assert.match(gb, /aria-describedby="asof-google-play"/);
    // The direct links replace the store search, through /go/ as every link.
    assert.match(gb, new RegExp(`href="/go/${slug}/google-play\\?country=GB"`));
    assert.equal(
      await goLocation(`/go/${slug}/google-play?country=GB`),
      'https://play.google.com/store/books/details?id=pricedVol01&rdid=book-pricedVol01&rdot=1&source=gbs_api',
    );
    assert.equal(
      await goLocation(`/go/${slug}/apple-books?country=GB`),
      'https://books.apple.com/gb/book/the-priced-book/id733000001?uo=4',
    );
    // schema.org Offers where a price is known.
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(gb)?.[1] ?? '{}') as {
      offers?: { price: number; priceCurrency: string; seller: { name: string } }[];
    };
    const prices = (ld.offers ?? []).map(
      (offer) => `${offer.seller.name} ${offer.price} ${offer.priceCurrency}`,
    );
    assert.deepEqual(prices.sort(), ['Apple Books 6.99 GBP', 'Google Play Books 7.99 GBP']);

    const de = await eventually(async () => {
      const html = await page(`/book/${slug}?country=DE&lang=de`);
      return offerOn(html, 'google-play') && offerOn(html, 'apple-books') ? html : undefined;
    });
    assert.equal(offerOn(de, 'google-play'), '8,99\u00a0€');
    assert.equal(offerOn(de, 'apple-books'), '7,99\u00a0€');
    assert.equal(offerOn(de, 'open-library'), 'Jetzt ausleihen');

    const us = await eventually(async () => {
      const html = await page(`/book/${slug}?country=US`);
      return offerOn(html, 'google-play') ? html : undefined;
    });
    assert.equal(offerOn(us, 'google-play'), 'Free');
    // iTunes' US storefront does not sell it: no result, so no price and no Apple Books link.
    assert.equal(offerOn(us, 'apple-books'), null);

    // Japan: Google lists it FOR_SALE without any price; iTunes without a price: nothing shown.
    await eventually(async () => {
      await page(`/book/${slug}?country=JP`);
      const reads = await context
        .store()
        .db.selectFrom('offer_reads')
        .select('source')
        .where('country', '=', 'JP')
        .where('read_at', 'is not', null)
        .execute();
      return reads.length === 2 ? true : undefined;
    });
    const jp = await page(`/book/${slug}?country=JP`);
    assert.equal(offerOn(jp, 'google-play'), null);
    assert.equal(offerOn(jp, 'apple-books'), null);
    assert.equal(offerOn(jp, 'open-library'), 'Borrow now', 'lending is the same in every country');
  });

  it('the links API and the embed carry the offers', async () => {
    const slug = await eventually(async () => {
      const row = await context
        .store()
        .db.selectFrom('books')
        .select('slug')
        .where('isbn13', '=', PRICED.isbn13)
        .executeTakeFirst();
      return row?.slug;
    });
    const response = await t.get(`/api/v1/books/${slug}/links?country=GB`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      groups: {
        links: { destination: string; offer?: { text: string; amount: number; currency: string } }[];
      }[];
    };
    const links = body.groups.flatMap((group) => group.links);
    const play = links.find((link) => link.destination === 'google-play');
    assert.deepEqual(
      play?.offer && { amount: play.offer.amount, currency: play.offer.currency, text: play.offer.text },
      { amount: 7.99, currency: 'GBP', text: '£7.99' },
    );
    const embed = await page(`/embed/${slug}?country=GB`);
    assert.match(embed, /£7\.99/);
  });

  it('shows the Apple Books audiobook price on its own button, with the audiobook’s own link, per country', async () => {
    fake.addBook(NAMESAKE);
    fake.addBook(HEARD);
    const slug = await createBook(HEARD);
    const first = await page(`/book/${slug}?country=GB`);
    // No audiobook id and no offer yet: Apple has no web search to send a reader to, so no button.
    assert.doesNotMatch(first, new RegExp(`data-destination="${AUDIO}"`));
    const gb = await eventually(async () => {
      const html = await page(`/book/${slug}?country=GB`);
      return offerOn(html, AUDIO) && offerOn(html, 'apple-books') ? html : undefined;
    });
    assert.equal(offerOn(gb, AUDIO), '£12.99', 'the audiobook’s price, not the namesake’s £1.99');
    assert.equal(offerOn(gb, 'apple-books'), '£5.99', 'the ebook keeps its own price');
    assert.match(gb, new RegExp(`class="dest__asof" id="asof-${AUDIO}">Price as of `));
    assert.match(gb, new RegExp(`href="/go/${slug}/${AUDIO}\\?country=GB"`));
    assert.equal(
      await goLocation(`/go/${slug}/${AUDIO}?country=GB`),
      'https://books.apple.com/gb/audiobook/the-heard-book-unabridged/id1552000001?uo=4',
    );
    // The ISBN lookup answered the ebook only; the audiobook came from the storefront's audiobook search.
    const asked = fake.requests('itunes').filter((path) => path.includes('country=gb'));
    assert.ok(asked.some((path) => path.includes(`isbn=${HEARD.isbn13}`)));
    assert.ok(
      asked.some(
        (path) =>
          path.startsWith('/itunes/search?') &&
          path.includes('media=audiobook') &&
          path.includes('entity=audiobook') &&
          path.includes('term=The+Heard+Book+Ada+Voice'),
      ),
      asked.join('\n'),
    );
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(gb)?.[1] ?? '{}') as {
      offers?: { price: number; priceCurrency: string; url: string; seller: { name: string } }[];
    };
    assert.deepEqual(
      (ld.offers ?? []).map((offer) => `${offer.seller.name} ${offer.price} ${offer.priceCurrency}`).sort(),
      ['Apple Books 5.99 GBP', 'Apple Books Audiobooks 12.99 GBP'],
    );

    const de = await eventually(async () => {
      const html = await page(`/book/${slug}?country=DE&lang=de`);
      return offerOn(html, AUDIO) ? html : undefined;
    });
    assert.equal(offerOn(de, AUDIO), '14,99\u00a0€');
    assert.equal(offerOn(de, 'apple-books'), '6,99\u00a0€');
    assert.equal(
      await goLocation(`/go/${slug}/${AUDIO}?country=DE`),
      'https://books.apple.com/de/audiobook/the-heard-book-unabridged/id1552000001?uo=4',
    );

    // The US storefront sells neither: the reads find nothing, so no price and no audiobook button.
    await eventually(async () => {
      await page(`/book/${slug}?country=US`);
      const read = await context
        .store()
        .db.selectFrom('offer_reads')
        .innerJoin('books', 'books.id', 'offer_reads.book_id')
        .select('offer_reads.read_at')
        .where('books.slug', '=', slug)
        .where('offer_reads.source', '=', 'itunes')
        .where('offer_reads.country', '=', 'US')
        .where('offer_reads.read_at', 'is not', null)
        .executeTakeFirst();
      return read ? true : undefined;
    });
    const us = await page(`/book/${slug}?country=US`);
    assert.doesNotMatch(us, new RegExp(`data-destination="${AUDIO}"`));
    assert.equal(offerOn(us, 'apple-books'), null);

    // The links API carries it, as the ebook's.
    const response = await t.get(`/api/v1/books/${slug}/links?country=GB`);
    const body = (await response.json()) as {
      groups: {
        group: string;
        links: {
          destination: string;
          go_url: string;
          kind: string;
          offer?: { state: string; text: string; amount: number; currency: string; source: string } | null;
        }[];
      }[];
    };
    const audio = body.groups
      .find((group) => group.group === 'audiobook')
      ?.links.find((link) => link.destination === AUDIO);
    assert.ok(audio, 'the audiobook group lists Apple Books Audiobooks');
    assert.deepEqual(
      audio.offer && {
        state: audio.offer.state,
        amount: audio.offer.amount,
        currency: audio.offer.currency,
        text: audio.offer.text,
        source: audio.offer.source,
      },
      { state: 'for_sale', amount: 12.99, currency: 'GBP', text: '£12.99', source: 'itunes' },
    );
    assert.equal(audio.kind, 'product');
    assert.match(audio.go_url, new RegExp(`/go/${slug}/${AUDIO}\\?country=GB$`));
    const embed = await page(`/embed/${slug}?country=GB`);
    assert.match(embed, /£12\.99/);

    // Stale (read two days ago, the time to live a day): no price, and its link is not used either.
    await context
      .store()
      .db.updateTable('book_offers')
      .set({ read_at: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .where('kind', '=', 'audiobook')
      .where('country', '=', 'GB')
      .execute();
    t.services.events.emit('offers-changed', slug);
    const stale = await page(`/book/${slug}?country=GB`);
    assert.doesNotMatch(stale, new RegExp(`data-destination="${AUDIO}"`));
    assert.doesNotMatch(stale, /12\.99/);
    assert.equal(offerOn(stale, 'apple-books'), '£5.99');
  });

  it('a pasted Apple Books audiobook link resolves, and its book gets the audiobook’s price by its id', async () => {
    const url = 'https://books.apple.com/gb/audiobook/the-heard-book-unabridged/id1552000001?uo=4';
    const resolved = await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`);
    assert.equal(resolved.status, 200);
    const body = (await resolved.json()) as { status: string; title?: string; booklink_url?: string };
    assert.deepEqual([body.status, body.title], ['found', 'The Heard Book']);
    const slug = new URL(body.booklink_url ?? 'http://x/').pathname.replace(/^\/(book|b)\//, '');
    const book = await context
      .store()
      .db.selectFrom('books')
      .innerJoin('book_identifiers', 'book_identifiers.book_id', 'books.id')
      .select(['books.id', 'book_identifiers.scheme', 'book_identifiers.value'])
      .where('books.slug', '=', slug)
      .execute();
    assert.deepEqual(
      book.map((row) => `${row.scheme}=${row.value}`),
      ['apple_audiobook=1552000001'],
      'the audiobook’s id, never taken for an ebook’s',
    );
    // Pasted again: the same book, from its identifier.
    const again = (await (await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`)).json()) as {
      booklink_url?: string;
    };
    assert.equal(again.booklink_url, body.booklink_url);
    // Its button links the audiobook by its id at once (asked before any page queued a read)…
    assert.equal(
      await goLocation(`/go/${slug}/${AUDIO}?country=DE`),
      'https://books.apple.com/de/audiobook/id1552000001',
    );
    const first = await page(`/book/${slug}?country=DE`);
    assert.match(first, new RegExp(`href="/go/${slug}/${AUDIO}\\?country=DE"`));
    // …and then shows its price, read by `lookup?id=` (the book has no ISBN to look up).
    const de = await eventually(async () => {
      const html = await page(`/book/${slug}?country=DE`);
      return offerOn(html, AUDIO) ? html : undefined;
    });
    assert.equal(offerOn(de, AUDIO), '€14.99');
    assert.ok(fake.requests('itunes').some((path) => path === '/itunes/lookup?id=1552000001&country=de'));
  });

  it('shows nothing for a book no store knows, and never a stale offer', async () => {
    const unknown: FakeBook = { isbn13: '9780007525553', title: 'Nobody Sells This', only: [] };
    const slug = await createBook(unknown);
    await eventually(async () => {
      await page(`/book/${slug}?country=GB`);
      const reads = await context
        .store()
        .db.selectFrom('offer_reads')
        .innerJoin('books', 'books.id', 'offer_reads.book_id')
        .select('offer_reads.source')
        .where('books.slug', '=', slug)
        .where('offer_reads.read_at', 'is not', null)
        .execute();
      return reads.length === 3 ? true : undefined;
    });
    const html = await page(`/book/${slug}?country=GB`);
    assert.doesNotMatch(html, /dest__offer/);

    // An offer read two days ago (TTL one day) is not shown.
    const book = await context
      .store()
      .db.selectFrom('books')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await context
      .store()
      .db.insertInto('book_offers')
      .values({
        book_id: book.id,
        source: 'googlebooks',
        country: 'FR',
        kind: 'ebook',
        state: 'for_sale',
        amount: 5.5,
        currency: 'EUR',
        url: 'https://play.google.com/store/books/details?id=stale',
        read_at: old,
      })
      .execute();
    t.services.events.emit('offers-changed', slug);
    const fr = await page(`/book/${slug}?country=FR`);
    assert.doesNotMatch(fr, /dest__offer/);
    assert.doesNotMatch(fr, /5,50|5\.50/);
  });

  it('a provider that hangs never delays a book page', async () => {
    const hanging: FakeBook = {
      isbn13: '9780007525560',
      title: 'The Hanging Store',
      offers: { google: { GB: { saleability: 'FOR_SALE', retail: [3, 'GBP'] } } },
    };
    fake.addBook(hanging);
    const slug = await createBook(hanging);
    fake.setFailure('googlebooks', { hang: true });
    const seen = () => fake.requests('googlebooks').filter((path) => path.includes('country=GB')).length;
    const before = seen();
    assert.equal((await t.get(`/book/${slug}?country=GB`)).status, 200);
    await eventually(async () => (seen() > before ? true : undefined));
    // Google has the offer read hanging right now; pages are answered all the same.
    for (const country of ['GB', 'DE', 'US'])
      assert.equal((await t.get(`/book/${slug}?country=${country}`)).status, 200);
    fake.setFailure('googlebooks', null);
  });

  it('a quota answer (429 RESOURCE_EXHAUSTED) stops the reads for the time it asks', async () => {
    // An instance of its own: the hung reads above opened this one's circuit for Google's offers.
    const other = await startTestApp(context.store(), { ...fake.env, ...OFFER_ENV });
    try {
      const quota: FakeBook = { isbn13: '9780007525577', title: 'The Quota Book', offers: {} };
      fake.addBook(quota);
      const quotaSlug = await createBook(quota);
      fake.setFailure('googlebooks', {
        status: 429,
        body: {
          error: {
            code: 429,
            message: "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'",
            status: 'RESOURCE_EXHAUSTED',
            details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '120s' }],
          },
        },
      });
      await other.get(`/book/${quotaSlug}?country=IT`);
      const deferred = await eventually(async () =>
        context
          .store()
          .db.selectFrom('offer_reads')
          .innerJoin('books', 'books.id', 'offer_reads.book_id')
          .select(['offer_reads.last_error', 'offer_reads.lease_until'])
          .where('books.slug', '=', quotaSlug)
          .where('offer_reads.source', '=', 'googlebooks')
          .where('offer_reads.last_error', 'is not', null)
          .executeTakeFirst(),
      );
      assert.equal(deferred.last_error, 'quota');
      assert.ok(
        Number(deferred.lease_until) > Date.now() + 60_000,
        'nobody asks again before the wait it asked',
      );
      // The offer reads count in /metrics under their own client's names, apart from the lookups.
      const metrics = await (await other.get('/metrics')).text();
      assert.match(
        metrics,
        /booklink_provider_outcomes_total\{provider="offers-googlebooks",outcome="quota"\} [1-9]/,
      );
    } finally {
      fake.setFailure('googlebooks', null);
      await other.close();
    }
  });

  it('the admin sees when a book’s offers were read, and can switch a source off (audited, CSRF-checked)', async () => {
    await addUser(context.store(), 'offers-admin@example.org', 'admin');
    const admin = new AdminClient(t);
    await admin.login('offers-admin@example.org');
    const book = await context
      .store()
      .db.selectFrom('books')
      .select('id')
      .where('isbn13', '=', PRICED.isbn13)
      .executeTakeFirstOrThrow();
    const bookPage = await admin.get(`/admin/books/${book.id}`);
    assert.match(bookPage.body, /Offers last read/);
    assert.match(
      bookPage.body,
      /data-offer-source="googlebooks"><td>Google Books \(Google Play prices\)<\/td><td>GB<\/td><td><time datetime="\d{4}-/,
    );
    assert.match(
      bookPage.body,
      /data-offer-source="openlibrary"><td>Open Library \(borrowing\)<\/td><td>all<\/td>/,
    );

    await admin.get('/admin/offers');
    const refused = await admin.post(
      '/admin/offers',
      { source_itunes: 'on', source_openlibrary: 'on' },
      false,
    );
    assert.equal(refused.status, 403, 'no CSRF token, no change');
    const saved = await admin.post('/admin/offers', { source_itunes: 'on', source_openlibrary: 'on' });
    assert.equal(saved.status, 303);
    const settings = await admin.get('/admin/offers');
    assert.match(settings.body, /name="source_googlebooks" value="on">/);
    assert.match(settings.body, /name="source_itunes" value="on" checked>/);
    const audit = await context
      .store()
      .db.selectFrom('audit_log')
      .select(['action', 'after_json'])
      .where('action', '=', 'offers.sources')
      .executeTakeFirstOrThrow();
    assert.match(String(audit.after_json), /googlebooks/);

    // A new book: iTunes is asked for its offers, Google no longer.
    const fresh: FakeBook = { isbn13: '9780007525638', title: 'After The Switch', offers: {} };
    fake.addBook(fresh);
    const slug = await createBook(fresh);
    await eventually(async () => {
      await page(`/book/${slug}?country=GB`);
      return fake
        .requests('itunes')
        .some((path) => path.includes(fresh.isbn13) && path.includes('country=gb'))
        ? true
        : undefined;
    });
    assert.equal(
      fake.requests('googlebooks').filter((path) => path.includes(fresh.isbn13) && path.includes('country='))
        .length,
      0,
    );
    await admin.post('/admin/offers', {
      source_googlebooks: 'on',
      source_itunes: 'on',
      source_openlibrary: 'on',
    });
  });
});
