import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: the old and new link forms are written out here and never read from live code, so
// this migration does the same thing forever.
//
// Migrations 0002 and 0026 seeded shop link templates written from memory. Checked against how each
// shop links to itself (docs/storefront-templates.md gives the evidence row by row), these were wrong:
// a search path or parameter the shop does not use, or a host the shop has left. Each row is changed
// only while it still holds the seeded form, so a template an operator has edited stays theirs.

type Tables = {
  destinations: {
    id: number;
    slug: string;
    url_template: string;
    base_url: string;
    updated_at: string;
  };
  destination_storefronts: {
    destination_id: number;
    country: string;
    base_url: string;
    url_template: string;
  };
};

/** A search by ISBN, then by title and author, on one base URL. */
const both = (isbn: string, words: string) => `${isbn}{isbn13} || ${words}{title_author}`;
const search = (prefix: string) => both(prefix, prefix);

type Fix = { slug: string; from: string; to: string; baseFrom?: string; baseTo?: string };

const DESTINATIONS: readonly Fix[] = [
  // Hive's own links and the publishers' link builders ask productType=0 (all formats), never 1.
  {
    slug: 'hive',
    from: 'https://www.hive.co.uk/Search/Keyword?keyword={isbn13}&productType=1 || https://www.hive.co.uk/Search/Keyword?keyword={title_author}&productType=1',
    to: 'https://www.hive.co.uk/Search/Keyword?keyword={isbn13}&productType=0 || https://www.hive.co.uk/Search/Keyword?keyword={title_author}&productType=0',
  },
  // bücher.de has no GET search (its search is a form POST); the shop's partners open a book by its
  // ISBN at /go/?isbn=<isbn>. Words still go to /search, which is unconfirmed.
  {
    slug: 'buecher-de',
    from: search('https://www.buecher.de/search?q='),
    to: both('https://www.buecher.de/go/?isbn=', 'https://www.buecher.de/search?q='),
  },
  // Weltbild's search asks in the path: /suche/<words>.
  {
    slug: 'weltbild',
    from: search('https://www.weltbild.de/suche?q='),
    to: search('https://www.weltbild.de/suche/'),
  },
  // Morawa runs no Thalia search; it opens a book from its ISBN at /detail/ISBN-<isbn>.
  {
    slug: 'morawa',
    from: search('https://www.morawa.at/suche?sq='),
    to: both('https://www.morawa.at/detail/ISBN-', 'https://www.morawa.at/suche?sq='),
  },
  // Club's shop lives at librairieclub.be and searches with ?filter=search(<words>).
  {
    slug: 'club',
    from: search('https://www.club.be/fr-be/search?q='),
    to: 'https://www.librairieclub.be/c/search?filter=search({isbn13}) || https://www.librairieclub.be/c/search?filter=search({title_author})',
    baseFrom: 'https://www.club.be',
    baseTo: 'https://www.librairieclub.be',
  },
  {
    slug: 'libris',
    from: search('https://www.libris.nl/zoeken?query='),
    to: search('https://www.libris.nl/zoek?q='),
  },
  {
    slug: 'paagman',
    from: search('https://www.paagman.nl/zoeken?q='),
    to: search('https://www.paagman.nl/zoek?term='),
  },
  {
    slug: 'todostuslibros',
    from: search('https://www.todostuslibros.com/busqueda?keyword='),
    to: search('https://www.todostuslibros.com/busquedas?keyword='),
  },
  // "?ts=as&query=" is IBS's form; laFeltrinelli, on the same software, answers /search?query=.
  {
    slug: 'lafeltrinelli',
    from: search('https://www.lafeltrinelli.it/search/?ts=as&query='),
    to: search('https://www.lafeltrinelli.it/search?query='),
  },
  {
    slug: 'readings',
    from: search('https://www.readings.com.au/search?q='),
    to: search('https://www.readings.com.au/search/results?query='),
  },
];

type FrontFix = { slug: string; country: string; from: string; to: string };

const STOREFRONTS: readonly FrontFix[] = [
  {
    slug: 'weltbild',
    country: 'AT',
    from: search('https://www.weltbild.at/suche?q='),
    to: search('https://www.weltbild.at/suche/'),
  },
  // leslibraires.ca is the Quebec cooperative's own site, not leslibraires.fr: its search asks ?s=.
  {
    slug: 'leslibraires',
    country: 'CA',
    from: search('https://www.leslibraires.ca/recherche/?q='),
    to: search('https://www.leslibraires.ca/recherche/?s='),
  },
];

export async function storefrontTemplatesMigration(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const fixDb = db.withTables<Tables>();
  const now = new Date().toISOString();
  // Each column changes only while it still holds the seeded form.
  const change = (slug: string, column: 'url_template' | 'base_url', from: string, to: string) =>
    fixDb
      .updateTable('destinations')
      .set({ [column]: to, updated_at: now })
      .where('slug', '=', slug)
      .where(column, '=', from)
      .execute();
  for (const fix of DESTINATIONS) {
    await change(fix.slug, 'url_template', fix.from, fix.to);
    if (fix.baseFrom && fix.baseTo) await change(fix.slug, 'base_url', fix.baseFrom, fix.baseTo);
  }
  for (const fix of STOREFRONTS) {
    const destination = await fixDb
      .selectFrom('destinations')
      .select('id')
      .where('slug', '=', fix.slug)
      .executeTakeFirst();
    if (!destination) continue;
    await fixDb
      .updateTable('destination_storefronts')
      .set({ url_template: fix.to })
      .where('destination_id', '=', Number(destination.id))
      .where('country', '=', fix.country)
      .where('url_template', '=', fix.from)
      .execute();
  }
}
