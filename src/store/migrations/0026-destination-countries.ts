import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../db.js';
import type { SeedTables } from './0002-destinations.js';

// Self-contained: the schema and seed rows are written out here and never read from live model code
// (its table types extend 0002's, frozen as this is), so this migration does the same thing forever. Operators edit countries and storefronts afterwards.
//
// A destination now says where it sells: `countries` is a comma-separated list of ISO 3166-1 codes, or
// empty for "everywhere" (libraries, free copies, the international stores). A country storefront
// (amazon.co.uk for Amazon in GB) is a row of `destination_storefronts`, keyed by the destination's id
// so that renaming a destination keeps them. The storefronts written in code until now
// (domain/storefronts.ts) are seeded here unchanged.

/** The destination tables as this migration leaves them (0002's, plus countries and storefronts). */
export type Tables = {
  destinations: SeedTables['destinations'] & { countries: string };
  destination_aliases: SeedTables['destination_aliases'];
  destination_storefronts: {
    destination_id: number;
    country: string;
    base_url: string;
    url_template: string;
  };
};

const notNull = (col: ColumnDefinitionBuilder) => col.notNull();

async function createTables(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('destinations')
    .addColumn('countries', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  const table = db.schema.createTable('destination_storefronts');
  const withId =
    dialect === 'sqlite'
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
      : table.addColumn('id', 'bigserial', (col) => col.primaryKey());
  await withId
    .addColumn('destination_id', dialect === 'sqlite' ? 'integer' : 'bigint', (col) =>
      col.notNull().references('destinations.id').onDelete('cascade'),
    )
    .addColumn('country', 'text', notNull)
    .addColumn('base_url', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('url_template', 'text', notNull)
    .addUniqueConstraint('destination_storefronts_destination_country', ['destination_id', 'country'])
    .execute();
}

// Where the stores seeded in 0002 sell: the US chains become US-only; the British shops seeded
// switched off are switched on for their countries.
const COUNTRIES_OF_SEEDED: ReadonlyArray<[slug: string, countries: string]> = [
  ['bookshop', 'US,GB'],
  ['barnes-noble', 'US'],
  ['books-a-million', 'US'],
  ['powells', 'US'],
  ['walmart', 'US,CA'],
  ['thriftbooks', 'US'],
  ['hoopla', 'US,CA'],
  ['waterstones', 'GB,IE'],
  ['blackwells', 'GB'],
];

type Shop = [
  slug: string,
  name: string,
  short: string,
  base: string,
  template: string,
  color: string,
  priority: number,
  countries: string,
];

/**
 * Each country's own bookshops, with the search-by-ISBN (or product-by-ISBN) address the shop's own
 * search box produces; a title search is the fallback where a shop finds nothing by ISBN.
 */
const SHOPS: Shop[] = [
  // United Kingdom and Ireland
  [
    'foyles',
    'Foyles',
    'Foyles',
    'https://www.foyles.co.uk',
    'https://www.foyles.co.uk/search?term={isbn13} || https://www.foyles.co.uk/search?term={title_author}',
    '#E4032E',
    44,
    'GB',
  ],
  [
    'whsmith',
    'WHSmith',
    'WHSmith',
    'https://www.whsmith.co.uk',
    'https://www.whsmith.co.uk/search?q={isbn13} || https://www.whsmith.co.uk/search?q={title_author}',
    '#00A7B5',
    42,
    'GB',
  ],
  [
    'hive',
    'Hive',
    'Hive',
    'https://www.hive.co.uk',
    'https://www.hive.co.uk/Search/Keyword?keyword={isbn13}&productType=1 || https://www.hive.co.uk/Search/Keyword?keyword={title_author}&productType=1',
    '#F7A70A',
    43,
    'GB',
  ],
  [
    'easons',
    'Eason',
    'Eason',
    'https://www.easons.com',
    'https://www.easons.com/search?q={isbn13} || https://www.easons.com/search?q={title_author}',
    '#0B3D91',
    48,
    'IE',
  ],
  [
    'kennys',
    "Kenny's Bookshop",
    "Kenny's",
    'https://www.kennys.ie',
    'https://www.kennys.ie/search?q={isbn13} || https://www.kennys.ie/search?q={title_author}',
    '#7B1E22',
    46,
    'IE',
  ],
  [
    'dubray',
    'Dubray Books',
    'Dubray',
    'https://www.dubraybooks.ie',
    'https://www.dubraybooks.ie/search?q={isbn13} || https://www.dubraybooks.ie/search?q={title_author}',
    '#1F4E3D',
    45,
    'IE',
  ],
  // Germany, Austria, Switzerland
  [
    'thalia',
    'Thalia',
    'Thalia',
    'https://www.thalia.de',
    'https://www.thalia.de/suche?sq={isbn13} || https://www.thalia.de/suche?sq={title_author}',
    '#E0004D',
    50,
    'DE,AT,CH',
  ],
  [
    'hugendubel',
    'Hugendubel',
    'Hugendubel',
    'https://www.hugendubel.de',
    'https://www.hugendubel.de/de/search?q={isbn13} || https://www.hugendubel.de/de/search?q={title_author}',
    '#D8282F',
    48,
    'DE',
  ],
  [
    'buecher-de',
    'bücher.de',
    'bücher.de',
    'https://www.buecher.de',
    'https://www.buecher.de/search?q={isbn13} || https://www.buecher.de/search?q={title_author}',
    '#E3001B',
    46,
    'DE,AT',
  ],
  [
    'osiander',
    'Osiander',
    'Osiander',
    'https://www.osiander.de',
    'https://www.osiander.de/suche?sq={isbn13} || https://www.osiander.de/suche?sq={title_author}',
    '#C8102E',
    44,
    'DE',
  ],
  [
    'weltbild',
    'Weltbild',
    'Weltbild',
    'https://www.weltbild.de',
    'https://www.weltbild.de/suche?q={isbn13} || https://www.weltbild.de/suche?q={title_author}',
    '#E2001A',
    40,
    'DE,AT',
  ],
  [
    'morawa',
    'Morawa',
    'Morawa',
    'https://www.morawa.at',
    'https://www.morawa.at/suche?sq={isbn13} || https://www.morawa.at/suche?sq={title_author}',
    '#A6192E',
    47,
    'AT',
  ],
  [
    'orell-fuessli',
    'Orell Füssli',
    'Orell Füssli',
    'https://www.orellfuessli.ch',
    'https://www.orellfuessli.ch/suche?sq={isbn13} || https://www.orellfuessli.ch/suche?sq={title_author}',
    '#00843D',
    49,
    'CH',
  ],
  [
    'ex-libris',
    'Ex Libris',
    'Ex Libris',
    'https://www.exlibris.ch',
    'https://www.exlibris.ch/de/suche/?q={isbn13} || https://www.exlibris.ch/de/suche/?q={title_author}',
    '#FFCC00',
    46,
    'CH',
  ],
  // France, Belgium
  [
    'fnac',
    'Fnac',
    'Fnac',
    'https://www.fnac.com',
    'https://www.fnac.com/SearchResult/ResultList.aspx?Search={isbn13} || https://www.fnac.com/SearchResult/ResultList.aspx?Search={title_author}',
    '#E1A925',
    50,
    'FR,BE,ES,CH',
  ],
  [
    'decitre',
    'Decitre',
    'Decitre',
    'https://www.decitre.fr',
    'https://www.decitre.fr/rechercher/result?q={isbn13} || https://www.decitre.fr/rechercher/result?q={title_author}',
    '#00597F',
    48,
    'FR,BE',
  ],
  [
    'cultura',
    'Cultura',
    'Cultura',
    'https://www.cultura.com',
    'https://www.cultura.com/search/results?search_query={isbn13} || https://www.cultura.com/search/results?search_query={title_author}',
    '#6E2C8E',
    46,
    'FR',
  ],
  [
    'leslibraires',
    'Leslibraires.fr',
    'Leslibraires',
    'https://www.leslibraires.fr',
    'https://www.leslibraires.fr/recherche/?q={isbn13} || https://www.leslibraires.fr/recherche/?q={title_author}',
    '#D5402B',
    47,
    'FR,CA',
  ],
  [
    'standaard-boekhandel',
    'Standaard Boekhandel',
    'Standaard',
    'https://www.standaardboekhandel.be',
    'https://www.standaardboekhandel.be/zoeken?query={isbn13} || https://www.standaardboekhandel.be/zoeken?query={title_author}',
    '#E30613',
    47,
    'BE',
  ],
  [
    'club',
    'Club',
    'Club',
    'https://www.club.be',
    'https://www.club.be/fr-be/search?q={isbn13} || https://www.club.be/fr-be/search?q={title_author}',
    '#E2001A',
    44,
    'BE',
  ],
  // Netherlands (and Flanders)
  [
    'bol',
    'bol',
    'bol',
    'https://www.bol.com',
    'https://www.bol.com/nl/nl/s/?searchtext={isbn13} || https://www.bol.com/nl/nl/s/?searchtext={title_author}',
    '#0000A4',
    50,
    'NL,BE',
  ],
  [
    'bruna',
    'Bruna',
    'Bruna',
    'https://www.bruna.nl',
    'https://www.bruna.nl/zoeken?query={isbn13} || https://www.bruna.nl/zoeken?query={title_author}',
    '#E30613',
    46,
    'NL',
  ],
  [
    'libris',
    'Libris',
    'Libris',
    'https://www.libris.nl',
    'https://www.libris.nl/zoeken?query={isbn13} || https://www.libris.nl/zoeken?query={title_author}',
    '#00587C',
    47,
    'NL',
  ],
  [
    'paagman',
    'Paagman',
    'Paagman',
    'https://www.paagman.nl',
    'https://www.paagman.nl/zoeken?q={isbn13} || https://www.paagman.nl/zoeken?q={title_author}',
    '#1C3F94',
    44,
    'NL',
  ],
  // Spain
  [
    'casa-del-libro',
    'Casa del Libro',
    'Casa del Libro',
    'https://www.casadellibro.com',
    'https://www.casadellibro.com/?query={isbn13} || https://www.casadellibro.com/?query={title_author}',
    '#00684A',
    50,
    'ES',
  ],
  [
    'el-corte-ingles',
    'El Corte Inglés',
    'El Corte Inglés',
    'https://www.elcorteingles.es',
    'https://www.elcorteingles.es/search-nwx/1/?s={isbn13} || https://www.elcorteingles.es/search-nwx/1/?s={title_author}',
    '#007A3D',
    47,
    'ES',
  ],
  [
    'todostuslibros',
    'Todos tus libros',
    'Todostuslibros',
    'https://www.todostuslibros.com',
    'https://www.todostuslibros.com/busqueda?keyword={isbn13} || https://www.todostuslibros.com/busqueda?keyword={title_author}',
    '#E94E1B',
    45,
    'ES',
  ],
  [
    'agapea',
    'Agapea',
    'Agapea',
    'https://www.agapea.com',
    'https://www.agapea.com/buscar/buscador.php?texto={isbn13} || https://www.agapea.com/buscar/buscador.php?texto={title_author}',
    '#F39200',
    42,
    'ES',
  ],
  // Italy
  [
    'ibs',
    'IBS',
    'IBS',
    'https://www.ibs.it',
    'https://www.ibs.it/search/?ts=as&query={isbn13} || https://www.ibs.it/search/?ts=as&query={title_author}',
    '#D6001C',
    50,
    'IT',
  ],
  [
    'lafeltrinelli',
    'laFeltrinelli',
    'laFeltrinelli',
    'https://www.lafeltrinelli.it',
    'https://www.lafeltrinelli.it/search/?ts=as&query={isbn13} || https://www.lafeltrinelli.it/search/?ts=as&query={title_author}',
    '#E2001A',
    48,
    'IT',
  ],
  [
    'mondadori-store',
    'Mondadori Store',
    'Mondadori',
    'https://www.mondadoristore.it',
    'https://www.mondadoristore.it/search/?g={isbn13} || https://www.mondadoristore.it/search/?g={title_author}',
    '#005BAA',
    46,
    'IT',
  ],
  [
    'libraccio',
    'Libraccio',
    'Libraccio',
    'https://www.libraccio.it',
    'https://www.libraccio.it/src/?xy={isbn13} || https://www.libraccio.it/src/?xy={title_author}',
    '#C1272D',
    44,
    'IT',
  ],
  // Canada
  [
    'indigo',
    'Indigo',
    'Indigo',
    'https://www.indigo.ca',
    'https://www.indigo.ca/en-ca/search?q={isbn13} || https://www.indigo.ca/en-ca/search?q={title_author}',
    '#2C2A29',
    50,
    'CA',
  ],
  [
    'renaud-bray',
    'Renaud-Bray',
    'Renaud-Bray',
    'https://www.renaud-bray.com',
    'https://www.renaud-bray.com/Recherche.aspx?words={isbn13} || https://www.renaud-bray.com/Recherche.aspx?words={title_author}',
    '#B0191E',
    46,
    'CA',
  ],
  // Australia and New Zealand
  [
    'booktopia',
    'Booktopia',
    'Booktopia',
    'https://www.booktopia.com.au',
    'https://www.booktopia.com.au/search.ep?keywords={isbn13} || https://www.booktopia.com.au/search.ep?keywords={title_author}',
    '#5A2D82',
    50,
    'AU',
  ],
  [
    'dymocks',
    'Dymocks',
    'Dymocks',
    'https://www.dymocks.com.au',
    'https://www.dymocks.com.au/search?q={isbn13} || https://www.dymocks.com.au/search?q={title_author}',
    '#D2232A',
    48,
    'AU',
  ],
  [
    'qbd',
    'QBD Books',
    'QBD',
    'https://www.qbd.com.au',
    'https://www.qbd.com.au/search/?q={isbn13} || https://www.qbd.com.au/search/?q={title_author}',
    '#E4002B',
    46,
    'AU',
  ],
  [
    'readings',
    'Readings',
    'Readings',
    'https://www.readings.com.au',
    'https://www.readings.com.au/search?q={isbn13} || https://www.readings.com.au/search?q={title_author}',
    '#1A1A1A',
    44,
    'AU',
  ],
  [
    'mighty-ape',
    'Mighty Ape',
    'Mighty Ape',
    'https://www.mightyape.co.nz',
    'https://www.mightyape.co.nz/search?q={isbn13} || https://www.mightyape.co.nz/search?q={title_author}',
    '#F26522',
    50,
    'NZ,AU',
  ],
  [
    'whitcoulls',
    'Whitcoulls',
    'Whitcoulls',
    'https://www.whitcoulls.co.nz',
    'https://www.whitcoulls.co.nz/search?q={isbn13} || https://www.whitcoulls.co.nz/search?q={title_author}',
    '#00573F',
    48,
    'NZ',
  ],
  [
    'paper-plus',
    'Paper Plus',
    'Paper Plus',
    'https://www.paperplus.co.nz',
    'https://www.paperplus.co.nz/search?q={isbn13} || https://www.paperplus.co.nz/search?q={title_author}',
    '#E3007E',
    46,
    'NZ',
  ],
  [
    'unity-books',
    'Unity Books',
    'Unity Books',
    'https://unitybooks.nz',
    'https://unitybooks.nz/search?q={isbn13} || https://unitybooks.nz/search?q={title_author}',
    '#000000',
    44,
    'NZ',
  ],
  // Japan
  [
    'kinokuniya',
    'Kinokuniya',
    'Kinokuniya',
    'https://www.kinokuniya.co.jp',
    'https://www.kinokuniya.co.jp/f/dsg-01-{isbn13}',
    '#004098',
    50,
    'JP',
  ],
  [
    'rakuten-books',
    'Rakuten Books',
    'Rakuten Books',
    'https://books.rakuten.co.jp',
    'https://books.rakuten.co.jp/search?sitem={isbn13} || https://books.rakuten.co.jp/search?sitem={title_author}',
    '#BF0000',
    48,
    'JP',
  ],
  [
    'honto',
    'honto',
    'honto',
    'https://honto.jp',
    'https://honto.jp/netstore/search.html?k={isbn13} || https://honto.jp/netstore/search.html?k={title_author}',
    '#E60039',
    46,
    'JP',
  ],
  [
    '7net',
    '7net shopping',
    '7net',
    'https://7net.omni7.jp',
    'https://7net.omni7.jp/search/?keyword={isbn13} || https://7net.omni7.jp/search/?keyword={title_author}',
    '#E60012',
    44,
    'JP',
  ],
  // India
  [
    'flipkart',
    'Flipkart',
    'Flipkart',
    'https://www.flipkart.com',
    'https://www.flipkart.com/search?q={isbn13} || https://www.flipkart.com/search?q={title_author}',
    '#2874F0',
    50,
    'IN',
  ],
  [
    'crossword',
    'Crossword',
    'Crossword',
    'https://www.crossword.in',
    'https://www.crossword.in/search?q={isbn13} || https://www.crossword.in/search?q={title_author}',
    '#D71920',
    48,
    'IN',
  ],
  [
    'bookswagon',
    'Bookswagon',
    'Bookswagon',
    'https://www.bookswagon.com',
    'https://www.bookswagon.com/search-books/{isbn13} || https://www.bookswagon.com/search-books/{title_author}',
    '#F26F21',
    46,
    'IN',
  ],
  [
    'sapna',
    'Sapna Online',
    'Sapna',
    'https://www.sapnaonline.com',
    'https://www.sapnaonline.com/search?keyword={isbn13} || https://www.sapnaonline.com/search?keyword={title_author}',
    '#E31E24',
    44,
    'IN',
  ],
];

type Front = [slug: string, country: string, base: string, template: string];

const amazonDomains: ReadonlyArray<[country: string, domain: string]> = [
  ['GB', 'co.uk'],
  ['IE', 'co.uk'],
  ['DE', 'de'],
  ['AT', 'de'],
  ['CH', 'de'],
  ['FR', 'fr'],
  ['BE', 'com.be'],
  ['IT', 'it'],
  ['ES', 'es'],
  ['NL', 'nl'],
  ['SE', 'se'],
  ['PL', 'pl'],
  ['CA', 'ca'],
  ['MX', 'com.mx'],
  ['BR', 'com.br'],
  ['AU', 'com.au'],
  ['NZ', 'com.au'],
  ['IN', 'in'],
  ['JP', 'co.jp'],
];
const koboLanguages: ReadonlyArray<[country: string, language: string]> = [
  ['GB', 'en'],
  ['IE', 'en'],
  ['CA', 'en'],
  ['AU', 'en'],
  ['NZ', 'en'],
  ['IN', 'en'],
  ['DE', 'de'],
  ['AT', 'de'],
  ['CH', 'de'],
  ['FR', 'fr'],
  ['BE', 'fr'],
  ['IT', 'it'],
  ['ES', 'es'],
  ['NL', 'nl'],
  ['JP', 'ja'],
];
/** Audible sells on Amazon's domain of the country (audible.co.uk for amazon.co.uk), in these. */
const audibleCountries = new Set([
  'GB',
  'IE',
  'DE',
  'AT',
  'CH',
  'FR',
  'IT',
  'ES',
  'CA',
  'AU',
  'NZ',
  'IN',
  'JP',
]);
const audibleDomains = amazonDomains.filter(([country]) => audibleCountries.has(country));
/** Apple Books' country storefronts; 0034 gives its audiobook destination the same. */
export const APPLE_COUNTRIES = [
  'GB',
  'IE',
  'CA',
  'AU',
  'NZ',
  'DE',
  'AT',
  'CH',
  'FR',
  'BE',
  'IT',
  'ES',
  'NL',
  'JP',
  'IN',
];

function storefronts(): Front[] {
  const fronts: Front[] = [];
  for (const [country, domain] of amazonDomains) {
    const base = `https://www.amazon.${domain}`;
    fronts.push(['amazon', country, base, `${base}/dp/{isbn10} || ${base}/s?k={title_author}&i=stripbooks`]);
    fronts.push(['kindle', country, base, `${base}/s?k={title_author}&i=digital-text`]);
  }
  for (const [country, language] of koboLanguages) {
    const search = `https://www.kobo.com/${country.toLowerCase()}/${language}/search?query=`;
    fronts.push(['kobo', country, 'https://www.kobo.com', `${search}{isbn13} || ${search}{title_author}`]);
  }
  for (const [country, domain] of audibleDomains) {
    const base = `https://www.audible.${domain}`;
    fronts.push(['audible', country, base, `${base}/search?keywords={title_author}`]);
  }
  for (const country of APPLE_COUNTRIES) {
    const template = `https://books.apple.com/${country.toLowerCase()}/book/id{apple_books}`;
    fronts.push(['apple-books', country, 'https://books.apple.com', template]);
  }
  const uk = 'https://uk.bookshop.org';
  fronts.push([
    'bookshop',
    'GB',
    uk,
    `${uk}/a/{affiliate}/{isbn13} || ${uk}/book/{isbn13} || ${uk}/search?keywords={title_author}`,
  ]);
  for (const country of ['AT', 'CH']) {
    const base = `https://www.thalia.${country.toLowerCase()}`;
    fronts.push(['thalia', country, base, `${base}/suche?sq={isbn13} || ${base}/suche?sq={title_author}`]);
  }
  for (const [country, tld] of [
    ['BE', 'be'],
    ['ES', 'es'],
    ['CH', 'ch'],
  ] as const) {
    const search = `https://www.fnac.${tld}/SearchResult/ResultList.aspx?Search=`;
    fronts.push(['fnac', country, `https://www.fnac.${tld}`, `${search}{isbn13} || ${search}{title_author}`]);
  }
  const weltbild = 'https://www.weltbild.at';
  fronts.push([
    'weltbild',
    'AT',
    weltbild,
    `${weltbild}/suche?q={isbn13} || ${weltbild}/suche?q={title_author}`,
  ]);
  const ape = 'https://www.mightyape.com.au';
  fronts.push(['mighty-ape', 'AU', ape, `${ape}/search?q={isbn13} || ${ape}/search?q={title_author}`]);
  const walmart = 'https://www.walmart.ca';
  fronts.push([
    'walmart',
    'CA',
    walmart,
    `${walmart}/en/search?q={isbn13} || ${walmart}/en/search?q={title_author}`,
  ]);
  const quebec = 'https://www.leslibraires.ca';
  fronts.push([
    'leslibraires',
    'CA',
    quebec,
    `${quebec}/recherche/?q={isbn13} || ${quebec}/recherche/?q={title_author}`,
  ]);
  const books = 'https://www.bol.com/be/nl/s/?searchtext=';
  fronts.push(['bol', 'BE', 'https://www.bol.com', `${books}{isbn13} || ${books}{title_author}`]);
  return fronts;
}

/** Every slug a destination has or had, an operator's own included: a seeded shop never takes one (0034 too). */
export async function takenSlugs(seedDb: Kysely<Tables>): Promise<Set<string>> {
  const slugs = await seedDb.selectFrom('destinations').select('slug').execute();
  const aliases = await seedDb.selectFrom('destination_aliases').select('old_slug').execute();
  return new Set([...slugs.map((row) => row.slug), ...aliases.map((row) => row.old_slug)]);
}

export async function destinationCountriesMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await createTables(db, dialect);
  const seedDb = db.withTables<Tables>();
  const now = new Date().toISOString();
  for (const [slug, countries] of COUNTRIES_OF_SEEDED) {
    await seedDb
      .updateTable('destinations')
      .set({ countries, updated_at: now })
      .where('slug', '=', slug)
      .execute();
  }
  // Only the two seeded switched off are switched on: a store an operator turned off stays off.
  await seedDb
    .updateTable('destinations')
    .set({ is_active: 1 })
    .where('slug', 'in', ['waterstones', 'blackwells'])
    .execute();
  // An operator may already have a destination (or a former slug) by one of these names: theirs stays.
  const taken = await takenSlugs(seedDb);
  const rows = SHOPS.filter(([slug]) => !taken.has(slug)).map(
    ([slug, name, short, base, template, color, priority, countries]) => ({
      slug,
      display_name: name,
      short_name: short,
      description: '',
      group_name: 'new',
      url_template: template,
      base_url: base,
      brand_color: color,
      display_priority: priority,
      is_active: 1,
      is_public: 1,
      affiliate_param: '',
      countries,
      created_at: now,
      updated_at: now,
    }),
  );
  if (rows.length > 0) await seedDb.insertInto('destinations').values(rows).execute();
  const ids = await seedDb.selectFrom('destinations').select(['id', 'slug']).execute();
  const idBySlug = new Map(ids.map((row) => [row.slug, Number(row.id)]));
  const fronts = storefronts().flatMap(([slug, country, base, template]) => {
    const destinationId = idBySlug.get(slug);
    return destinationId === undefined
      ? []
      : [{ destination_id: destinationId, country, base_url: base, url_template: template }];
  });
  if (fronts.length > 0) await seedDb.insertInto('destination_storefronts').values(fronts).execute();
}
