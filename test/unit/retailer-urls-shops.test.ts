import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ParsedRetailerUrl, parseRetailerUrl } from '../../src/domain/retailer-urls/index.js';

// The shops' own link forms, as docs/storefront-templates.md records where each was seen: product
// pages as the shops print them, the search forms the seeded templates now use (migration 0033), and
// the forms seeded before, which links already shared still carry.

const parse = (url: string): ParsedRetailerUrl => {
  const result = parseRetailerUrl(url);
  assert.ok(result, `no parse for ${url}`);
  return result;
};

const summary = (url: string) => {
  const result = parse(url);
  return {
    store: result.store,
    country: result.country,
    kind: result.kind,
    isbn: result.isbn?.isbn13 ?? null,
    title: result.titleWords,
  };
};

describe('shop product pages as the shops print them', () => {
  it('reads the ISBN and the title from the path', () => {
    const cases: [string, string, string, string, string | null][] = [
      [
        'https://www.morawa.at/detail/ISBN-9783754970386/Peternell-Marianne/Frauen-und-ihr-Erbe',
        'morawa',
        'AT',
        '9783754970386',
        'Frauen und ihr Erbe',
      ],
      ['https://www.morawa.at/detail/ISBN-9783546100335', 'morawa', 'AT', '9783546100335', null],
      // A partner's link into bücher.de, as the shop's affiliates print it.
      [
        'https://www.buecher.de/go/?isbn=9783518471470&partner=somepartner',
        'buecher-de',
        'DE',
        '9783518471470',
        null,
      ],
      [
        'https://www.dubraybooks.ie/kitchen-confidential-insiders-edition_9781408845042',
        'dubray',
        'IE',
        '9781408845042',
        'kitchen confidential insiders edition',
      ],
      [
        'https://www.standaardboekhandel.be/p/how-to-change-your-mind-9781594204227',
        'standaard-boekhandel',
        'BE',
        '9781594204227',
        'how to change your mind',
      ],
      [
        'https://www.agapea.com/libros/NOTACION-GRAFIA-MUSICAL-SIGLO-XX-9788480484961-i.htm',
        'agapea',
        'ES',
        '9788480484961',
        'NOTACION GRAFIA MUSICAL SIGLO XX',
      ],
      [
        // The ISBN written with its hyphens.
        'https://www.todostuslibros.com/libros/notacion-grafia-musical-siglo-xx_978-84-8048-496-1',
        'todostuslibros',
        'ES',
        '9788480484961',
        'notacion grafia musical siglo xx',
      ],
      ['https://www.kinokuniya.co.jp/f/dsg-01-9784575160543', 'kinokuniya', 'JP', '9784575160543', null],
      [
        'https://www.bruna.nl/boeken/howls-moving-castle-9780007299263',
        'bruna',
        'NL',
        '9780007299263',
        'howls moving castle',
      ],
    ];
    for (const [url, store, country, isbn, title] of cases) {
      assert.deepEqual(summary(url), { store, country, kind: 'book', isbn, title }, url);
    }
  });

  it('tells the author apart where the shop does', () => {
    const morawa = parse(
      'https://www.morawa.at/detail/ISBN-9783754970386/Peternell-Marianne/Frauen-und-ihr-Erbe',
    );
    assert.equal(morawa.authorWords, 'Peternell Marianne');
    // Libris names author and title in one parameter: ?authortitle=<author>/<title>--<isbn>.
    const libris = parse(
      'https://www.libris.nl/boek/?authortitle=darrell-huff/liegen-met-cijfers--9789492790156',
    );
    assert.deepEqual(
      [libris.store, libris.kind, libris.isbn?.isbn13, libris.titleWords, libris.authorWords],
      ['libris', 'book', '9789492790156', 'liegen met cijfers', 'darrell huff'],
    );
    // Renaud-Bray: ?def=<Title>,<AUTHOR>,<isbn> beside the shop's own number.
    const renaud = parse(
      'https://www.renaud-bray.com/Livres_Produit.aspx?id=2376123&def=Dark+web,KOONTZ,+DEAN+RAY,9782809823622',
    );
    assert.deepEqual(
      [renaud.kind, renaud.isbn?.isbn13, renaud.titleWords, renaud.authorWords, renaud.identifiers],
      ['book', '9782809823622', 'Dark web', 'KOONTZ DEAN RAY', { renaud_bray: '2376123' }],
    );
  });

  it("keeps a shop's own number where the page names no ISBN", () => {
    const result = parse('https://www.leslibraires.fr/livre/23683049-jacaranda-gael-faye-grasset');
    assert.deepEqual(
      [result.kind, result.isbn, result.identifiers, result.titleWords],
      ['book', null, { leslibraires: '23683049' }, 'jacaranda gael faye grasset'],
    );
  });
});

describe('shop searches in the forms 0033 seeds', () => {
  it('ties a search by ISBN to its book', () => {
    const cases: [string, string, string][] = [
      ['https://www.weltbild.de/suche/9780141439518', 'weltbild', 'DE'],
      ['https://www.weltbild.at/suche/9780141439518', 'weltbild', 'AT'],
      [
        'https://www.librairieclub.be/c/search?filter=search(9780141439518)&page=1&page_size=24&sort=RelevanceClub&sort_type=desc',
        'club',
        'BE',
      ],
      ['https://libris.nl/zoek?q=9780141439518', 'libris', 'NL'],
      ['https://www.paagman.nl/zoek?term=9780141439518', 'paagman', 'NL'],
      ['https://www.todostuslibros.com/busquedas?keyword=9780141439518', 'todostuslibros', 'ES'],
      ['https://www.lafeltrinelli.it/search?query=9780141439518', 'feltrinelli', 'IT'],
      ['https://www.readings.com.au/search/results?query=9780141439518', 'readings', 'AU'],
      ['https://www.leslibraires.ca/recherche/?s=9780141439518', 'leslibraires', 'CA'],
      ['https://www.hive.co.uk/Search/Keyword?keyword=9780141439518&productType=0', 'hive', 'GB'],
    ];
    for (const [url, store, country] of cases) {
      assert.deepEqual(
        summary(url),
        { store, country, kind: 'book', isbn: '9780141439518', title: null },
        url,
      );
    }
  });

  it('offers the words a search by title asked', () => {
    const cases: [string, string][] = [
      [
        'https://www.weltbild.de/suche/Pride%20and%20Prejudice%20Jane%20Austen',
        'Pride and Prejudice Jane Austen',
      ],
      ['https://www.librairieclub.be/c/search?filter=search(Pride+and+Prejudice)', 'Pride and Prejudice'],
      ['https://www.readings.com.au/search/results?query=ambrose+patterson', 'ambrose patterson'],
      ['https://www.leslibraires.ca/recherche/?s=michel+tremblay&p=1', 'michel tremblay'],
      ['https://www.paagman.nl/zoek?term=dolfje+weerwolfje', 'dolfje weerwolfje'],
      // The shops' own search parameters, which the generic scan does not know.
      ['https://www.morawa.at/suche?sq=Frauen+und+ihr+Erbe', 'Frauen und ihr Erbe'],
      ['https://www.thalia.de/suche?sq=die+verwandlung', 'die verwandlung'],
      ['https://www.renaud-bray.com/Recherche.aspx?langue=fr&words=michel+tremblay', 'michel tremblay'],
      ['https://www.libraccio.it/src/?FT=il+nome+della+rosa&ch=libraccio', 'il nome della rosa'],
      ['https://www.bookswagon.com/search-books/rich-dad-poor-dad', 'rich dad poor dad'],
      ['https://bookshop.org/search?keywords=the+hobbit', 'the hobbit'],
      ['https://www.ebay.com/sch/i.html?_nkw=the+hobbit&_sacat=267', 'the hobbit'],
    ];
    for (const [url, words] of cases) {
      const result = parse(url);
      assert.deepEqual([result.kind, result.isbn, result.titleWords], ['not_book', null, words], url);
    }
  });
});

describe('shop searches in the forms seeded before 0033', () => {
  it('still reads the links already shared', () => {
    const cases: [string, string][] = [
      ['https://www.weltbild.de/suche?q=9780141439518', 'weltbild'],
      ['https://www.morawa.at/suche?sq=9780141439518', 'morawa'],
      ['https://www.club.be/fr-be/search?q=9780141439518', 'club'],
      ['https://www.bruna.nl/zoeken?query=9780141439518', 'bruna'],
      ['https://www.libris.nl/zoeken?query=9780141439518', 'libris'],
      ['https://www.paagman.nl/zoeken?q=9780141439518', 'paagman'],
      ['https://www.todostuslibros.com/busqueda?keyword=9780141439518', 'todostuslibros'],
      ['https://www.lafeltrinelli.it/search/?ts=as&query=9780141439518', 'feltrinelli'],
      ['https://www.readings.com.au/search?q=9780141439518', 'readings'],
      ['https://www.leslibraires.ca/recherche/?q=9780141439518', 'leslibraires'],
      ['https://www.hive.co.uk/Search/Keyword?keyword=9780141439518&productType=1', 'hive'],
    ];
    for (const [url, store] of cases) {
      const result = parse(url);
      assert.deepEqual(
        [result.store, result.kind, result.isbn?.isbn13],
        [store, 'book', '9780141439518'],
        url,
      );
    }
  });
});
