import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseIsbn } from '../../src/domain/isbn.js';
import {
  type ParsedRetailerUrl,
  parseRetailerUrl,
  STORE_RULES,
} from '../../src/domain/retailer-urls/index.js';

/**
 * One labelled URL. `store: null` marks input that is not an http(s) URL (the parser returns null).
 * An absent `isbn13` means the URL must yield no ISBN; absent `titleWords`/`country` are not checked.
 */
interface FixtureRow {
  url: string;
  store: string | null;
  expect: {
    kind: ParsedRetailerUrl['kind'];
    isbn13?: string;
    identifiers?: Record<string, string>;
    titleWords?: string | null;
    country?: string | null;
    needsExpansion?: boolean;
  };
}

const FIXTURE = new URL('../fixtures/eval/urls.jsonl', import.meta.url);
const rows: FixtureRow[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as FixtureRow);

/** Every way a parse differs from its label; empty when the row is right. */
function mismatches(row: FixtureRow): string[] {
  const got = parseRetailerUrl(row.url);
  if (row.store === null) return got === null ? [] : [`expected null, got store ${got.store}`];
  if (!got) return ['expected a result, got null'];
  const { expect } = row;
  const problems: string[] = [];
  const check = (field: string, actual: unknown, wanted: unknown) => {
    if (actual !== wanted)
      problems.push(`${field}: got ${JSON.stringify(actual)}, want ${JSON.stringify(wanted)}`);
  };
  check('store', got.store, row.store);
  check('kind', got.kind, expect.kind);
  check('isbn13', got.isbn?.isbn13 ?? null, expect.isbn13 ?? null);
  for (const [scheme, value] of Object.entries(expect.identifiers ?? {})) {
    check(`identifiers.${scheme}`, got.identifiers[scheme], value);
  }
  if ('titleWords' in expect) check('titleWords', got.titleWords, expect.titleWords);
  if ('country' in expect) check('country', got.country, expect.country);
  if ('needsExpansion' in expect) check('needsExpansion', got.needsExpansion, expect.needsExpansion);
  if (/[?&](?:utm_|fbclid|gclid|tag=|qid=|sr=|psc=|keywords=|ref_?=)/i.test(got.canonicalUrl)) {
    problems.push(`canonicalUrl keeps tracking: ${got.canonicalUrl}`);
  }
  return problems;
}

describe('retailer URL fixture (test/fixtures/eval/urls.jsonl)', () => {
  it('is large and varied enough to mean something', () => {
    assert.ok(rows.length >= 300, `${rows.length} rows`);
    const stores = new Set(rows.map((row) => row.store).filter((store) => store && store !== 'unknown'));
    assert.ok(stores.size >= 40, `${stores.size} stores`);
    for (const kind of ['book', 'not_book', 'unknown']) {
      assert.ok(
        rows.some((row) => row.expect.kind === kind && row.store !== null),
        kind,
      );
    }
  });

  it('labels only checksum-valid ISBNs', () => {
    for (const row of rows) {
      if (row.expect.isbn13) assert.equal(parseIsbn(row.expect.isbn13)?.isbn13, row.expect.isbn13, row.url);
    }
  });

  it('parses every labelled URL as labelled, and reports accuracy per store', () => {
    const perStore = new Map<string, { right: number; total: number }>();
    const failures: string[] = [];
    for (const row of rows) {
      const problems = mismatches(row);
      const key = row.store ?? '(invalid)';
      const tally = perStore.get(key) ?? { right: 0, total: 0 };
      tally.total += 1;
      if (problems.length === 0) tally.right += 1;
      else failures.push(`${row.url}\n    ${problems.join('\n    ')}`);
      perStore.set(key, tally);
    }
    const right = [...perStore.values()].reduce((sum, tally) => sum + tally.right, 0);
    const table = [...perStore.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([store, tally]) => `  ${store.padEnd(18)} ${tally.right}/${tally.total}`);
    console.log(`retailer-urls accuracy: ${right}/${rows.length}\n${table.join('\n')}`);
    assert.deepEqual(failures, []);
  });
});

describe('store table', () => {
  it('covers at least 40 stores, each with a recognised page shape', () => {
    const stores = new Set(STORE_RULES.map((rule) => rule.store));
    assert.ok(stores.size >= 40, `${stores.size} stores`);
    for (const rule of STORE_RULES) assert.ok(rule.shortLink || rule.patterns.length > 0, rule.store);
  });
});

const parse = (url: string): ParsedRetailerUrl => {
  const result = parseRetailerUrl(url);
  assert.ok(result, `no parse for ${url}`);
  return result;
};

describe('input handling', () => {
  it('adds a missing scheme and ignores case, www, mobile and smile subdomains', () => {
    for (const url of [
      'amazon.com/dp/054792822X',
      'HTTPS://M.AMAZON.COM/dp/054792822X',
      'smile.amazon.com/dp/054792822X',
    ]) {
      const result = parse(url);
      assert.equal(result.store, 'amazon', url);
      assert.equal(result.isbn?.isbn13, '9780547928227', url);
      assert.equal(result.canonicalUrl, 'https://www.amazon.com/dp/054792822X', url);
    }
  });
  it('rejects other schemes, bare words and hosts without a domain', () => {
    for (const junk of [
      'javascript:alert(1)',
      'ftp://amazon.com/dp/054792822X',
      'hello',
      '',
      'http://',
      'https://intranet/x',
    ]) {
      assert.equal(parseRetailerUrl(junk), null, junk);
    }
  });
  it('does not let a look-alike host borrow a store', () => {
    assert.equal(parse('https://amazon.com.attacker.example/dp/054792822X').store, 'unknown');
    assert.equal(parse('https://notamazon.com/dp/054792822X').store, 'unknown');
    assert.equal(parse('https://www.amazon.com@attacker.example/dp/054792822X').store, 'unknown');
  });
  it('never throws on odd paths, such as one starting with // on an unknown host', () => {
    assert.equal(parse('https://shop.example//x/%E0%A4/9780547928227#%').isbn?.isbn13, '9780547928227');
    assert.equal(parse('https://www.amazon.com/%E0%A4/dp/054792822X').isbn?.isbn13, '9780547928227');
  });
  it('prefers the most specific host entry', () => {
    assert.equal(parse('https://uk.bookshop.org/book/9780261103344').country, 'GB');
    assert.equal(parse('https://bookshop.org/book/9780261103344').country, 'US');
    assert.equal(parse('https://play.google.com/store/books/details?id=pD6arNyKyi8C').store, 'googleplay');
  });
});

describe('canonical URLs', () => {
  it('keep identity parameters and drop tracking', () => {
    assert.equal(
      parse(
        'https://www.barnesandnoble.com/w/the-hobbit/1100213011?ean=9780547928227&st=PLA&gclid=x&utm_source=y',
      ).canonicalUrl,
      'https://www.barnesandnoble.com/w/the-hobbit/1100213011?ean=9780547928227',
    );
    assert.equal(
      parse('https://books.google.com/books?id=pD6arNyKyi8C&printsec=frontcover&dq=hobbit&ved=abc')
        .canonicalUrl,
      'https://books.google.com/books?id=pD6arNyKyi8C',
    );
  });
  it('shorten Amazon product pages to /dp/ASIN on the storefront', () => {
    assert.equal(
      parse('https://www.amazon.co.uk/Hobbit/dp/0261103342/ref=sr_1_1?keywords=hobbit&qid=1&sr=8-1&tag=x-21')
        .canonicalUrl,
      'https://www.amazon.co.uk/dp/0261103342',
    );
  });
  it('keep search terms on pages that are not books, without tracking', () => {
    assert.equal(
      parse('https://www.amazon.com/s?k=the+hobbit&crid=1&ref=nb_sb_noss').canonicalUrl,
      'https://www.amazon.com/s?k=the+hobbit',
    );
  });
});

describe('Amazon', () => {
  it('treats a numeric ASIN with a valid ISBN-10 checksum as that ISBN', () => {
    const result = parse('https://www.amazon.de/dp/3608938281');
    assert.deepEqual(result.isbn, { isbn13: '9783608938289', isbn10: '3608938281' });
    assert.deepEqual(result.identifiers, { asin: '3608938281' });
    assert.equal(result.country, 'DE');
  });
  it('keeps a B0 ASIN as an identifier without inventing an ISBN', () => {
    const result = parse('https://www.amazon.com/dp/B0D1XD1ZV3');
    assert.equal(result.isbn, null);
    assert.equal(result.kind, 'unknown');
    assert.equal(parse('https://www.amazon.com/Some-Novel-ebook/dp/B0D1XD1ZV3').kind, 'book');
  });
  it('reads every legacy product path', () => {
    for (const path of [
      '/gp/product/054792822X',
      '/gp/aw/d/054792822X',
      '/exec/obidos/ASIN/054792822X',
      '/exec/obidos/tg/detail/-/054792822X',
      '/o/ASIN/054792822X',
      '/product/054792822X',
    ]) {
      assert.equal(parse(`https://www.amazon.com${path}`).isbn?.isbn13, '9780547928227', path);
    }
  });
  it('says not_book for video, music, DVD slugs and non-book nodes', () => {
    for (const url of [
      'https://www.amazon.com/gp/video/detail/B0B8TR3KVP',
      'https://www.amazon.com/music/player/albums/B0C1234567',
      'https://www.amazon.co.uk/Hobbit-Trilogy-DVD/dp/B00OLI2QCQ',
      'https://www.amazon.com/dp/B08N5WRWNW?node=172282',
    ]) {
      assert.equal(parse(url).kind, 'not_book', url);
    }
  });
  it('flags short links for expansion and reads nothing else from them', () => {
    for (const url of [
      'https://amzn.to/3xYzAbC',
      'a.co/d/abc',
      'https://amzn.eu/d/x',
      'https://amzn.asia/d/y',
    ]) {
      const result = parse(url);
      assert.equal(result.needsExpansion, true, url);
      assert.equal(result.kind, 'unknown', url);
    }
    assert.equal(parse('https://www.amazon.com/dp/054792822X').needsExpansion, false);
  });
});

describe('catalogues', () => {
  it('reads Goodreads book and work ids with either slug style', () => {
    assert.equal(parse('https://www.goodreads.com/book/show/5907.The_Hobbit').titleWords, 'The Hobbit');
    assert.equal(parse('https://www.goodreads.com/book/show/5907-the-hobbit').identifiers.goodreads, '5907');
    assert.equal(
      parse('https://www.goodreads.com/work/editions/1540236-the-hobbit').identifiers.goodreads_work,
      '1540236',
    );
  });
  it('reads Open Library editions, works and ISBN paths', () => {
    assert.deepEqual(parse('https://openlibrary.org/books/OL7353617M/The_Hobbit').identifiers, {
      ol_edition: 'OL7353617M',
    });
    assert.deepEqual(parse('https://openlibrary.org/works/OL27482W').identifiers, { ol_work: 'OL27482W' });
    assert.equal(parse('https://openlibrary.org/isbn/0261103342').isbn?.isbn13, '9780261103344');
  });
  it('reads WorldCat OCLC numbers on the old and new sites', () => {
    for (const url of [
      'https://www.worldcat.org/oclc/1037871',
      'https://search.worldcat.org/title/1037871',
      'https://search.worldcat.org/en/title/1037871',
      'https://search.worldcat.org/fr-ca/title/the-hobbit/1037871',
      'https://www.worldcat.org/title/-/oclc/1037871',
      'https://mylibrary.on.worldcat.org/v2/oclc/1037871',
      'https://mylibrary.on.worldcat.org/oclc/1037871',
      'https://mylibrary.on.worldcat.org/search/detail/1037871?queryString=hobbit',
      'https://mylibrary.on.worldcat.org/v2/search/detail/1037871',
      'https://mylibrary.on.worldcat.org/search?queryString=no%3A1037871',
      'https://search.worldcat.org/search?q=no:1037871',
    ]) {
      assert.equal(parse(url).identifiers.worldcat, '1037871', url);
    }
  });
  it('leaves WorldCat search pages unread as books', () => {
    assert.equal(parse('https://mylibrary.on.worldcat.org/search?queryString=hobbit').kind, 'not_book');
    assert.equal(parse('https://search.worldcat.org/search?q=hobbit').kind, 'not_book');
  });
  it('reads LibraryThing work ids under any work page', () => {
    for (const url of [
      'https://www.librarything.com/work/1565',
      'https://www.librarything.com/work/1565/t/The-Hobbit',
      'https://www.librarything.com/work/1565/book/123456',
      'https://www.librarything.com/work/1565/details/123456',
      'https://www.librarything.com/work/1565/reviews',
    ]) {
      assert.equal(parse(url).identifiers.librarything, '1565', url);
    }
  });
  it('tells Douban books from Douban films', () => {
    assert.equal(parse('https://book.douban.com/subject/1008145/').kind, 'book');
    assert.equal(parse('https://movie.douban.com/subject/1291546/').kind, 'not_book');
  });
});

describe('ebook and audiobook platforms', () => {
  it('reads Google Books ids, edition pages and vid=ISBN', () => {
    assert.equal(
      parse('https://books.google.fr/books?id=pD6arNyKyi8C&hl=fr').identifiers.google_volume,
      'pD6arNyKyi8C',
    );
    assert.equal(parse('https://www.google.com/books/edition/_/pD6arNyKyi8C').titleWords, null);
    assert.equal(parse('https://books.google.com/books?vid=ISBN9780547928227').isbn?.isbn13, '9780547928227');
  });
  it('reads Apple Books and old iTunes book links but not albums', () => {
    const apple = parse('https://books.apple.com/us/book/the-hobbit/id395211');
    assert.deepEqual(
      [apple.identifiers.apple_books, apple.country, apple.titleWords],
      ['395211', 'US', 'the hobbit'],
    );
    assert.equal(parse('https://itunes.apple.com/us/book/the-hobbit/id395211?mt=11').kind, 'book');
    // An audiobook has its own id, never the ebook's: kept apart, its slug's edition note dropped.
    const audio = parse(
      'https://books.apple.com/gb/audiobook/project-hail-mary-unabridged/id1552184040?uo=4',
    );
    assert.deepEqual(
      [audio.kind, audio.identifiers, audio.country, audio.titleWords],
      ['book', { apple_audiobook: '1552184040' }, 'GB', 'project hail mary'],
    );
    assert.deepEqual(parse('https://itunes.apple.com/us/audiobook/dune/id281099279?mt=3').identifiers, {
      apple_audiobook: '281099279',
    });
    assert.equal(parse('https://itunes.apple.com/us/album/abbey-road/id1441164426').kind, 'not_book');
  });
  it('reads Kobo slugs and their storefront country', () => {
    const kobo = parse('https://www.kobo.com/gb/en/audiobook/the-hobbit-12');
    assert.deepEqual([kobo.identifiers.kobo, kobo.country], ['the-hobbit-12', 'GB']);
  });
  it('reads Audible ASINs and drops the "Audiobook" slug suffix', () => {
    const audible = parse('https://www.audible.co.uk/pd/The-Hobbit-Audiobook/B0099RKRTY?ref=a_search');
    assert.deepEqual(
      [audible.identifiers.audible, audible.titleWords, audible.country],
      ['B0099RKRTY', 'The Hobbit', 'GB'],
    );
  });
});

describe('booksellers', () => {
  it('reads the ISBN wherever a store puts it', () => {
    const cases: [string, string][] = [
      ['https://bookshop.org/a/1234/9780525559474', '9780525559474'],
      ['https://www.waterstones.com/book/the-hobbit/j-r-r-tolkien/9780261103344', '9780261103344'],
      ['https://www.powells.com/book/the-hobbit-9780547928227', '9780547928227'],
      [
        'https://www.thriftbooks.com/w/the-hobbit_j-r-r-tolkien/250564/#isbn=054792822X&idiq=1',
        '9780547928227',
      ],
      ['https://www.abebooks.com/9780547928227/Hobbit-Tolkien-J-R-R-054792822X/plp', '9780547928227'],
      ['https://www.booktopia.com.au/the-hobbit/book/9780261103344.html', '9780261103344'],
      ['https://www.saxo.com/dk/hobbitten_j-r-r-tolkien_indbundet_9788702123456', '9788702123456'],
    ];
    for (const [url, isbn13] of cases) assert.equal(parse(url).isbn?.isbn13, isbn13, url);
  });
  it('treats a non-ISBN barcode parameter as a product that is not a book', () => {
    assert.equal(
      parse('https://www.barnesandnoble.com/w/some-film/1144567890?ean=0883929812345').kind,
      'not_book',
    );
  });
  it('keeps general stores unknown unless the URL holds an ISBN', () => {
    assert.equal(parse('https://www.walmart.com/ip/123456789').kind, 'unknown');
    assert.equal(parse('https://www.ebay.com/itm/Hobbit-Tolkien-9780547928227/334455667788').kind, 'book');
    assert.equal(parse('https://www.fnac.com/a15234567/Samsung-TV').kind, 'unknown');
  });
  it('marks home, search and account pages not_book', () => {
    for (const url of [
      'https://www.waterstones.com/',
      'https://bookshop.org/search?keywords=x',
      'https://www.kobo.com/us/en/search?query=x',
    ]) {
      assert.equal(parse(url).kind, 'not_book', url);
    }
  });
});

describe('unknown hosts', () => {
  it('accept a checksum-valid ISBN-13 in the path or an ISBN parameter', () => {
    assert.equal(parse('https://shop.example/book/9780547928227').kind, 'book');
    assert.equal(parse('https://shop.example/item?isbn=054792822X').isbn?.isbn13, '9780547928227');
  });
  it('do not trust a bare ten-digit number, which passes the ISBN-10 checksum one time in eleven', () => {
    const result = parse('https://shop.example/product/054792822X');
    assert.deepEqual([result.store, result.kind, result.isbn], ['unknown', 'unknown', null]);
  });
  it('read the title words of a slug-like path, and a one-word title with the name before it', () => {
    const words = (url: string) => [parse(url).titleWords, parse(url).searchedWords ?? false];
    assert.deepEqual(words('https://www.harpercollins.com/products/the-alchemist-paulo-coelho'), [
      'the alchemist paulo coelho',
      false,
    ]);
    assert.deepEqual(words('https://www.hachettebookgroup.com/titles/bram-stoker/dracula/'), [
      'bram stoker dracula',
      false,
    ]);
    // A lone word names a page ("/about", "/books/dune"), not a book.
    assert.deepEqual(words('https://shop.example/books/dune'), [null, false]);
    // A film or music section names no book, whatever its slug says.
    assert.equal(parse('https://media-shop.example/movies/the-hobbit').kind, 'not_book');
    assert.equal(parse('https://media-shop.example/movies/the-hobbit').titleWords, 'the hobbit');
    // What the shop's search box was asked is marked so: searched, never read as one book.
    assert.deepEqual(words('https://shop.example/search?q=the+road'), ['the road', true]);
  });
});

describe('old and other store paths', () => {
  it("reads Waterstones' old product paths: author, title and the shop's number", () => {
    const result = parse(
      'https://www.waterstones.com/waterstonesweb/products/john+buchan/the+thirty-nine+steps/4455667/',
    );
    assert.deepEqual(
      [result.kind, result.titleWords, result.authorWords, result.identifiers],
      ['book', 'the thirty nine steps', 'john buchan', { waterstones_sku: '4455667' }],
    );
  });
});
