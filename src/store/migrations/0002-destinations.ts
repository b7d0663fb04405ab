import type { Generated, Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: the seed rows are written out here and never read from live model code, so this
// migration inserts the same destinations forever. Operators edit them in the admin area afterwards.

type SeedRow = {
  slug: string;
  display_name: string;
  short_name: string;
  description: string;
  group_name: string;
  url_template: string;
  base_url: string;
  brand_color: string;
  display_priority: number;
  is_active: number;
  affiliate_param: string;
};

/** The destination tables as this migration leaves them; later migrations extend these (0026). */
export type SeedTables = {
  destinations: SeedRow & {
    id: Generated<number>;
    is_public: number;
    created_at: string;
    updated_at: string;
  };
  destination_aliases: { old_slug: string; destination_id: number };
};

type Seed = [
  slug: string,
  name: string,
  short: string,
  group: string,
  base: string,
  template: string,
  color: string,
  priority: number,
  affiliateParam?: string,
  active?: boolean,
];

const NEW: Seed[] = [
  [
    'bookshop',
    'Bookshop.org',
    'Bookshop',
    'new',
    'https://bookshop.org',
    'https://bookshop.org/a/{affiliate}/{isbn13} || https://bookshop.org/book/{isbn13} || https://bookshop.org/search?keywords={title_author}',
    '#4C3BCF',
    100,
  ],
  [
    'amazon',
    'Amazon',
    'Amazon',
    'new',
    'https://www.amazon.com',
    'https://www.amazon.com/dp/{isbn10} || https://www.amazon.com/s?k={title_author}&i=stripbooks',
    '#FF9900',
    90,
    'tag',
  ],
  [
    'barnes-noble',
    'Barnes & Noble',
    'B&N',
    'new',
    'https://www.barnesandnoble.com',
    'https://www.barnesandnoble.com/w/?ean={isbn13} || https://www.barnesandnoble.com/s/{title_author}',
    '#2A5934',
    80,
  ],
  [
    'books-a-million',
    'Books-A-Million',
    'BAM!',
    'new',
    'https://www.booksamillion.com',
    'https://www.booksamillion.com/search?query={isbn13} || https://www.booksamillion.com/search?query={title_author}',
    '#C8102E',
    60,
  ],
  [
    'powells',
    "Powell's Books",
    "Powell's",
    'new',
    'https://www.powells.com',
    'https://www.powells.com/searchresults?keyword={isbn13} || https://www.powells.com/searchresults?keyword={title_author}',
    '#1E3A6E',
    70,
  ],
  [
    'walmart',
    'Walmart',
    'Walmart',
    'new',
    'https://www.walmart.com',
    'https://www.walmart.com/search?q={isbn13} || https://www.walmart.com/search?q={title_author}',
    '#0071CE',
    40,
  ],
  // Regional stores: seeded switched off so a fresh install lists one country's stores.
  [
    'waterstones',
    'Waterstones',
    'Waterstones',
    'new',
    'https://www.waterstones.com',
    'https://www.waterstones.com/books/search/term/{isbn13} || https://www.waterstones.com/books/search/term/{title_author}',
    '#1D1D1B',
    50,
    '',
    false,
  ],
  [
    'blackwells',
    "Blackwell's",
    "Blackwell's",
    'new',
    'https://blackwells.co.uk',
    'https://blackwells.co.uk/bookshop/product/{isbn13} || https://blackwells.co.uk/bookshop/search/?keyword={title_author}',
    '#00263E',
    45,
    '',
    false,
  ],
];

const USED: Seed[] = [
  [
    'abebooks',
    'AbeBooks',
    'AbeBooks',
    'used',
    'https://www.abebooks.com',
    'https://www.abebooks.com/servlet/SearchResults?isbn={isbn13} || https://www.abebooks.com/servlet/SearchResults?kn={title_author}',
    '#E11B22',
    90,
  ],
  [
    'thriftbooks',
    'ThriftBooks',
    'ThriftBooks',
    'used',
    'https://www.thriftbooks.com',
    'https://www.thriftbooks.com/browse/?b.search={isbn13} || https://www.thriftbooks.com/browse/?b.search={title_author}',
    '#3A7D44',
    80,
  ],
  [
    'better-world-books',
    'Better World Books',
    'BWB',
    'used',
    'https://www.betterworldbooks.com',
    'https://www.betterworldbooks.com/search/results?q={isbn13} || https://www.betterworldbooks.com/search/results?q={title_author}',
    '#0E7C3A',
    70,
  ],
  [
    'alibris',
    'Alibris',
    'Alibris',
    'used',
    'https://www.alibris.com',
    'https://www.alibris.com/booksearch?mtype=B&keyword={isbn13} || https://www.alibris.com/booksearch?mtype=B&keyword={title_author}',
    '#003A70',
    60,
  ],
  [
    'biblio',
    'Biblio',
    'Biblio',
    'used',
    'https://www.biblio.com',
    'https://www.biblio.com/search.php?keyisbn={isbn13} || https://www.biblio.com/search.php?keywords={title_author}',
    '#7A1F1F',
    50,
  ],
  [
    'ebay',
    'eBay',
    'eBay',
    'used',
    'https://www.ebay.com',
    // Category 267 is "Books & Magazines", so an ISBN search does not return phone cases.
    'https://www.ebay.com/sch/i.html?_nkw={isbn13}&_sacat=267 || https://www.ebay.com/sch/i.html?_nkw={title_author}&_sacat=267',
    '#E53238',
    40,
  ],
];

const EBOOK: Seed[] = [
  [
    'kindle',
    'Amazon Kindle',
    'Kindle',
    'ebook',
    'https://www.amazon.com',
    // A print ISBN does not lead to the Kindle edition; the store's own search does.
    'https://www.amazon.com/s?k={title_author}&i=digital-text',
    '#232F3E',
    90,
    'tag',
  ],
  [
    'kobo',
    'Rakuten Kobo',
    'Kobo',
    'ebook',
    'https://www.kobo.com',
    'https://www.kobo.com/us/en/search?query={isbn13} || https://www.kobo.com/us/en/search?query={title_author}',
    '#BF0000',
    80,
  ],
  [
    'apple-books',
    'Apple Books',
    'Apple Books',
    'ebook',
    'https://books.apple.com',
    // Apple has no web search for books: only a known store id gives a link.
    'https://books.apple.com/us/book/id{apple_books}',
    '#FB5C1A',
    70,
    'at',
  ],
  [
    'google-play',
    'Google Play Books',
    'Google Play',
    'ebook',
    'https://play.google.com',
    'https://play.google.com/store/books/details?id={google_volume} || https://play.google.com/store/search?q={isbn13}&c=books || https://play.google.com/store/search?q={title_author}&c=books',
    '#01875F',
    60,
  ],
];

const AUDIOBOOK: Seed[] = [
  [
    'audible',
    'Audible',
    'Audible',
    'audiobook',
    'https://www.audible.com',
    'https://www.audible.com/search?keywords={title_author}',
    '#F7991C',
    90,
  ],
  [
    'librofm',
    'Libro.fm',
    'Libro.fm',
    'audiobook',
    'https://libro.fm',
    // Audiobooks carry their own ISBNs, so the print ISBN would miss: search by title and author.
    'https://libro.fm/search?q={title_author}',
    '#F26B3A',
    85,
  ],
  [
    'spotify',
    'Spotify Audiobooks',
    'Spotify',
    'audiobook',
    'https://open.spotify.com',
    'https://open.spotify.com/search/{title_author}/audiobooks',
    '#1DB954',
    70,
  ],
  [
    'google-play-audiobooks',
    'Google Play Audiobooks',
    'Google Play',
    'audiobook',
    'https://play.google.com',
    'https://play.google.com/store/search?q={title_author}&c=audiobooks',
    '#01875F',
    60,
  ],
];

const LIBRARY: Seed[] = [
  [
    'libby',
    'Libby / OverDrive',
    'Libby',
    'library',
    'https://www.overdrive.com',
    'https://www.overdrive.com/search?q={title_author}',
    '#A61E61',
    90,
  ],
  [
    'worldcat',
    'WorldCat',
    'WorldCat',
    'library',
    'https://search.worldcat.org',
    'https://search.worldcat.org/search?q=bn:{isbn13} || https://search.worldcat.org/search?q={title_author}',
    '#2E6DB4',
    80,
  ],
  [
    'hoopla',
    'hoopla',
    'hoopla',
    'library',
    'https://www.hoopladigital.com',
    'https://www.hoopladigital.com/search?q={title_author}',
    '#E2532E',
    70,
  ],
  [
    'open-library',
    'Open Library',
    'Open Library',
    'library',
    'https://openlibrary.org',
    'https://openlibrary.org/books/{ol_edition} || https://openlibrary.org/isbn/{isbn13} || https://openlibrary.org/works/{ol_work}',
    '#3D6B99',
    60,
  ],
  [
    'internet-archive',
    'Internet Archive',
    'Archive.org',
    'library',
    'https://archive.org',
    // Only an identifier a source confirmed: this link claims the book can be borrowed there.
    'https://archive.org/details/{ia}',
    '#333333',
    50,
  ],
];

// Free copies are claims that the book is there, so each template uses a confirmed identifier only.
const FREE: Seed[] = [
  [
    'gutenberg',
    'Project Gutenberg',
    'Gutenberg',
    'free',
    'https://www.gutenberg.org',
    'https://www.gutenberg.org/ebooks/{gutenberg}',
    '#8C1A1A',
    90,
  ],
  [
    'standard-ebooks',
    'Standard Ebooks',
    'Standard Ebooks',
    'free',
    'https://standardebooks.org',
    'https://standardebooks.org/ebooks/{standard_ebooks}',
    '#2A3B4C',
    85,
  ],
  [
    'librivox',
    'LibriVox',
    'LibriVox',
    'free',
    'https://librivox.org',
    'https://librivox.org/{librivox}',
    '#7B2C14',
    70,
  ],
];

const ALIASES: ReadonlyArray<[oldSlug: string, slug: string]> = [
  ['bn', 'barnes-noble'],
  ['barnesandnoble', 'barnes-noble'],
  ['overdrive', 'libby'],
  ['archive', 'internet-archive'],
  ['openlibrary', 'open-library'],
  ['project-gutenberg', 'gutenberg'],
  ['bam', 'books-a-million'],
];

function toRow(seed: Seed): SeedRow {
  const [slug, name, short, group, base, template, color, priority, param = '', active = true] = seed;
  return {
    slug,
    display_name: name,
    short_name: short,
    description: '',
    group_name: group,
    url_template: template,
    base_url: base,
    brand_color: color,
    display_priority: priority,
    is_active: active ? 1 : 0,
    affiliate_param: param,
  };
}

export async function destinationsMigration(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const seedDb = db.withTables<SeedTables>();
  const now = new Date().toISOString();
  const rows = [...NEW, ...USED, ...EBOOK, ...AUDIOBOOK, ...LIBRARY, ...FREE].map((seed) => ({
    ...toRow(seed),
    is_public: 1,
    created_at: now,
    updated_at: now,
  }));
  await seedDb.insertInto('destinations').values(rows).execute();
  const ids = await seedDb.selectFrom('destinations').select(['id', 'slug']).execute();
  const idBySlug = new Map(ids.map((row) => [row.slug, Number(row.id)]));
  const aliases = ALIASES.flatMap(([oldSlug, slug]) => {
    const destinationId = idBySlug.get(slug);
    return destinationId === undefined ? [] : [{ old_slug: oldSlug, destination_id: destinationId }];
  });
  await seedDb.insertInto('destination_aliases').values(aliases).execute();
}
