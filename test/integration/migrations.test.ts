import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createOpenLibraryStaging } from '../../src/store/migrations/0014-identifier-index.js';
import { stagingWithoutRowidMigration } from '../../src/store/migrations/0020-staging-without-rowid.js';
import { foldKeepsMarksMigration } from '../../src/store/migrations/0023-fold-keeps-marks.js';
import { markRanges } from '../../src/store/migrations/0024-fold-marks-postgres.js';
import { listPublicIdsMigration } from '../../src/store/migrations/0025-list-public-ids.js';
import { storefrontTemplatesMigration } from '../../src/store/migrations/0033-storefront-templates.js';
import { appleAudiobooksMigration } from '../../src/store/migrations/0034-apple-audiobooks.js';
import { bookClicksMigration } from '../../src/store/migrations/0035-book-clicks.js';
import { refreshSearchStatistics } from '../../src/store/search/vocabulary.js';
import { startTestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, bookRecord } from '../support/factories.js';

describeEachDialect('migrations', (context) => {
  it('creates every table and is idempotent', async () => {
    const { db } = context.store();
    const again = await migrateToLatest(context.store());
    assert.deepEqual(again, [], 'a second run applies nothing');
    const rows = await db.selectFrom('books').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(rows.n), 0);
  });

  it('keeps the address of a list made before lists had public ids, on its page and in the API', async () => {
    const store = context.store();
    const { db } = store;
    const t = await startTestApp(store);
    try {
      const book = await t.services.creator.createFromRecord(
        bookRecord({ isbn13: '9780000000019', title: 'An Old Favourite', authors: ['Test Author'] }),
      );
      // The lists table as 0006 made it, holding a list a reader made then (its address: its number).
      await db.schema.dropIndex('lists_public_id').execute();
      await db.schema.alterTable('lists').dropColumn('public_id').execute();
      const now = new Date().toISOString();
      const inserted = await sql<{
        id: number;
      }>`insert into lists (kind, name, is_featured, created_at, updated_at)
        values ('reader', 'Old shelf', 1, ${now}, ${now}) returning id`.execute(db);
      const id = Number(inserted.rows[0]?.id);
      assert.ok(id > 0);
      await sql`insert into list_items (list_id, book_id, position, created_at)
        values (${id}, ${book.id}, 1, ${now})`.execute(db);

      await listPublicIdsMigration(db as Kysely<unknown>, context.dialect);

      const short = await t.get(`/list/${id}`);
      assert.equal(short.status, 301);
      assert.equal(short.headers.get('location'), `/list/${id}-old-shelf`);
      const page = await t.get(`/list/${id}-old-shelf`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /An Old Favourite/);
      assert.equal((await t.get(`/list/${id}/qr.svg`)).status, 200);
      const api = await t.get(`/api/v1/lists/${id}`);
      assert.equal(api.status, 200);
      const body = await api.json();
      assert.equal(body.id, String(id));
      assert.equal(body.url, `http://booklink.test/list/${id}-old-shelf`);
      assert.deepEqual(
        body.books.map((b: { title: string }) => b.title),
        ['An Old Favourite'],
      );
      assert.match(await (await t.get('/')).text(), new RegExp(`href="/list/${id}-old-shelf"`));
      await assert.rejects(
        sql`insert into lists (public_id, kind, created_at, updated_at)
          values (${String(id)}, 'reader', ${now}, ${now})`.execute(db),
        'the public id is unique',
      );
    } finally {
      await t.close();
      await db.deleteFrom('lists').execute();
      await db.deleteFrom('books').execute();
    }
  });

  it('keeps the staged Open Library rows when their tables are rebuilt keyed by their primary key alone', async () => {
    const { db } = context.store();
    // The staging tables as 0014 made them, holding rows an earlier import staged.
    await db.schema.dropTable('ol_authors').execute();
    await db.schema.dropTable('ol_works').execute();
    await createOpenLibraryStaging(db as Kysely<unknown>);
    const authors = [
      { author_key: 'OL1A', name: 'Ada Quill', last_modified: '2024-03-01' },
      { author_key: 'OL2A', name: 'Bram Fenwick', last_modified: null },
    ];
    const works = [
      {
        work_key: 'OL10W',
        title: 'The Lantern Keeper',
        first_year: 1921,
        author_keys: 'OL1A',
        last_modified: null,
      },
      {
        work_key: 'OL11W',
        title: null,
        first_year: null,
        author_keys: 'OL1A,OL2A',
        last_modified: '2024-03-01',
      },
    ];
    await db.insertInto('ol_authors').values(authors).execute();
    await db.insertInto('ol_works').values(works).execute();

    await stagingWithoutRowidMigration(db as Kysely<unknown>, context.dialect);

    assert.deepEqual(await db.selectFrom('ol_authors').selectAll().orderBy('author_key').execute(), authors);
    assert.deepEqual(await db.selectFrom('ol_works').selectAll().orderBy('work_key').execute(), works);
    if (context.dialect === 'sqlite') {
      const tables = await sql<{ sql: string }>`select sql from sqlite_master
        where type = 'table' and name in ('ol_authors', 'ol_works')`.execute(db);
      assert.equal(tables.rows.length, 2);
      for (const table of tables.rows) assert.match(table.sql, /without rowid$/i);
    }
    await assert.rejects(
      db.insertInto('ol_authors').values({ author_key: 'OL1A', name: 'Again' }).execute(),
      'the key is still unique',
    );
    await db.deleteFrom('ol_authors').execute();
    await db.deleteFrom('ol_works').execute();
  });

  it('keys again the catalog entries whose match key the old fold split at kana voiced marks or Hangul jamo', async () => {
    const { db } = context.store();
    // Keys as the fold before 0023 wrote them: NFKD left the marks loose and split the words there.
    const rows = [
      {
        title: '消極性デザイン宣言',
        authors: ['栗原一貴'],
        old: '消極性テ サ イン宣言|栗原一貴',
        now: '消極性デザイン宣言|栗原一貴',
      },
      { title: '한국어 소설', authors: [], old: `${'한국어 소설'.normalize('NFKD')}|`, now: '한국어 소설|' },
      { title: 'Les Misérables', authors: ['Victor Hugo'], old: 'miserables|hugo', now: 'miserables|hugo' },
      // Keyed from other names than its own authors (an Open Library by-statement): left as it is.
      {
        title: '消極性デザイン宣言',
        authors: [],
        old: '消極性テ サ イン宣言|kurihara',
        now: '消極性テ サ イン宣言|kurihara',
      },
    ];
    for (const [i, row] of rows.entries()) {
      await addCatalogEntry(context.store(), {
        title: row.title,
        authors: row.authors,
        entryKey: `fold:${i}`,
      });
      await db
        .updateTable('catalog_entries')
        .set({ match_key: row.old })
        .where('entry_key', '=', `fold:${i}`)
        .execute();
    }
    await foldKeepsMarksMigration(db as Kysely<unknown>, context.dialect);
    const keys = await db
      .selectFrom('catalog_entries')
      .select(['entry_key', 'match_key'])
      .where('entry_key', 'like', 'fold:%')
      .orderBy('entry_key')
      .execute();
    assert.deepEqual(
      keys.map((row) => row.match_key),
      rows.map((row) => row.now),
    );
    await db.deleteFrom('catalog_identifiers').execute();
    await db.deleteFrom('catalog_entries').execute();
  });

  if (context.dialect === 'postgres') {
    it("writes each new book's words straight into the full-text index; an import merges the catalog's pending ones", async () => {
      const store = context.store();
      const { db } = store;
      // The pages of an index's GIN pending list, merged by the call.
      const merged = async (index: string) =>
        Number(
          (
            await sql<{ pages: number }>`select gin_clean_pending_list(${index}::regclass) as pages`.execute(
              db,
            )
          ).rows[0]?.pages,
        );
      const now = new Date().toISOString();
      for (const title of ['Pending Harbour', 'Pending Orchard', 'Pending Lantern']) {
        await db
          .insertInto('books')
          .values({
            slug: title.toLowerCase().replace(' ', '-'),
            title,
            authors: '["Mara Quill"]',
            popularity: 0,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      assert.equal(await merged('books_fts'), 0, 'no book waits in a pending list');
      assert.ok(await merged('books_trgm'), 'the trigram index, which keeps its pending list, did hold them');
      for (const title of ['Pending Atlas', 'Pending Quarry']) await addCatalogEntry(store, { title });
      await refreshSearchStatistics(store);
      assert.deepEqual(
        [
          await merged('catalog_entries_fts'),
          await merged('catalog_entries_fts_rated'),
          await merged('catalog_entries_trgm'),
        ],
        [0, 0, 0],
      );
      await addCatalogEntry(store, { title: 'Pending Meadow' });
      assert.ok(await merged('catalog_entries_fts'), 'an entry written later waits in the pending list');
      await db.deleteFrom('books').execute();
      await db.deleteFrom('catalog_entries').execute();
    });

    it('folds text into the same search words and trigrams as the fold 0003 made (marks split), whatever the characters', async () => {
      const { db } = context.store();
      const schemaOf = async (name: string) =>
        (
          await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema
            from pg_extension where extname = ${name}`.execute(db)
        ).rows[0]?.schema;
      const unaccent = await schemaOf('unaccent');
      const trigrams = await schemaOf('pg_trgm');
      const unaccented = unaccent ? `${unaccent}.unaccent('${unaccent}.unaccent'::regdictionary, t)` : 't';
      // 0003's fold: every run of characters other than letters and digits became one space; since
      // 0024 every combining mark splits a word too, as SQLite's index and the query's tokens split it.
      const before = `btrim(regexp_replace(lower(${unaccented}), '[^[:alnum:]]+|[${markRanges()}]+', ' ', 'g'))`;
      const trigramsOf = (text: string) => (trigrams ? `${trigrams}.show_trgm(${text})` : `'{}'::text[]`);
      // Every code point up to U+3000 between words, beside digits and inside runs of blanks.
      const result = await sql<{ total: string; differ: string; text_differs: string }>`
        with s as (
          select 'Zoë' || chr(cp) || 'Abc déf 12' || chr(cp) || chr(cp) || '3.5 x-y ' || chr(cp) as t
            from generate_series(1, 12288) cp
          union all select 'Wren' || chr(cp) || ' ' || chr(cp) || 'Ös-' || chr(cp) || '  O''Hara 1/2' as t
            from generate_series(1, 12288) cp
        ), f as (select ${sql.raw(before)} as a, booklink_fold(t) as b from s)
        select count(*) as total,
          count(*) filter (where to_tsvector('simple'::regconfig, a) <> to_tsvector('simple'::regconfig, b)
            or ${sql.raw(trigramsOf('a'))} <> ${sql.raw(trigramsOf('b'))}) as differ,
          count(*) filter (where a <> b) as text_differs
        from f`.execute(db);
      const counts = result.rows[0];
      assert.ok(counts);
      assert.equal(Number(counts.total), 2 * 12288);
      assert.equal(Number(counts.differ), 0, 'no text is searched for other words or trigrams');
      assert.ok(
        Number(counts.text_differs) > 0,
        'the folds do differ in blanks, so the comparison is a real one',
      );
    });
  }

  it('mends the shop links seeded from memory, and leaves a template an operator edited alone', async () => {
    const { db } = context.store();
    const template = async (slug: string) =>
      db
        .selectFrom('destinations')
        .select(['id', 'url_template', 'base_url'])
        .where('slug', '=', slug)
        .executeTakeFirstOrThrow();
    const front = async (slug: string, country: string) =>
      (
        await db
          .selectFrom('destination_storefronts')
          .select('url_template')
          .where('destination_id', '=', (await template(slug)).id)
          .where('country', '=', country)
          .executeTakeFirstOrThrow()
      ).url_template;
    // A fresh install runs every migration: it holds the forms the shops use.
    assert.equal(
      (await template('weltbild')).url_template,
      'https://www.weltbild.de/suche/{isbn13} || https://www.weltbild.de/suche/{title_author}',
    );
    assert.equal((await template('club')).base_url, 'https://www.librairieclub.be');
    const before = {
      weltbild: await template('weltbild'),
      club: await template('club'),
      libris: await template('libris'),
      leslibraires: await front('leslibraires', 'CA'),
    };
    try {
      // The rows as 0026 seeded them, but for one template an operator has since rewritten.
      const seeded = (prefix: string) => `${prefix}{isbn13} || ${prefix}{title_author}`;
      await db
        .updateTable('destinations')
        .set({ url_template: seeded('https://www.weltbild.de/suche?q=') })
        .where('slug', '=', 'weltbild')
        .execute();
      await db
        .updateTable('destinations')
        .set({ url_template: seeded('https://www.club.be/fr-be/search?q='), base_url: 'https://www.club.be' })
        .where('slug', '=', 'club')
        .execute();
      const operators = 'https://www.libris.nl/winkel/boekhandel-x?zoek={isbn13}';
      await db
        .updateTable('destinations')
        .set({ url_template: operators })
        .where('slug', '=', 'libris')
        .execute();
      await db
        .updateTable('destination_storefronts')
        .set({ url_template: seeded('https://www.leslibraires.ca/recherche/?q=') })
        .where('destination_id', '=', (await template('leslibraires')).id)
        .where('country', '=', 'CA')
        .execute();

      await storefrontTemplatesMigration(db as Kysely<unknown>, context.dialect);

      assert.equal((await template('weltbild')).url_template, before.weltbild.url_template);
      assert.deepEqual(
        [(await template('club')).url_template, (await template('club')).base_url],
        [before.club.url_template, 'https://www.librairieclub.be'],
      );
      assert.equal((await template('libris')).url_template, operators, "the operator's template stays");
      assert.equal(
        await front('leslibraires', 'CA'),
        'https://www.leslibraires.ca/recherche/?s={isbn13} || https://www.leslibraires.ca/recherche/?s={title_author}',
      );
    } finally {
      await db
        .updateTable('destinations')
        .set({ url_template: before.libris.url_template })
        .where('slug', '=', 'libris')
        .execute();
    }
  });

  it('seeds the Apple Books audiobook destination with its storefronts once, and leaves an operator’s own alone', async () => {
    const { db } = context.store();
    const row = () =>
      db
        .selectFrom('destinations')
        .select(['id', 'display_name', 'group_name', 'url_template', 'affiliate_param'])
        .where('slug', '=', 'apple-books-audiobooks')
        .execute();
    const fronts = async (id: number) =>
      (
        await db
          .selectFrom('destination_storefronts')
          .select(['country', 'url_template'])
          .where('destination_id', '=', id)
          .orderBy('country')
          .execute()
      ).map((front) => `${front.country} ${front.url_template}`);
    const [seeded] = await row();
    assert.ok(seeded, 'a fresh install has it');
    assert.deepEqual(
      [seeded.display_name, seeded.group_name, seeded.url_template, seeded.affiliate_param],
      [
        'Apple Books Audiobooks',
        'audiobook',
        'https://books.apple.com/us/audiobook/id{apple_audiobook}',
        'at',
      ],
    );
    const ebook = await db
      .selectFrom('destinations')
      .select('id')
      .where('slug', '=', 'apple-books')
      .executeTakeFirstOrThrow();
    const ebookCountries = (await fronts(Number(ebook.id))).map((front) => front.slice(0, 2));
    const audio = await fronts(Number(seeded.id));
    assert.deepEqual(
      audio.map((front) => front.slice(0, 2)),
      ebookCountries,
      'the ebook destination’s countries',
    );
    assert.ok(audio.includes('GB https://books.apple.com/gb/audiobook/id{apple_audiobook}'));
    const edited = 'https://books.apple.com/us/audiobook/id{apple_audiobook}?mt=3';
    try {
      await db
        .updateTable('destinations')
        .set({ url_template: edited })
        .where('id', '=', seeded.id)
        .execute();
      await appleAudiobooksMigration(db as Kysely<unknown>, context.dialect);
      const after = await row();
      assert.equal(after.length, 1, 'never a second one');
      assert.equal(after[0]?.url_template, edited, "the operator's template stays");
      assert.equal((await fronts(Number(seeded.id))).length, audio.length, 'no storefront added twice');
    } finally {
      await db
        .updateTable('destinations')
        .set({ url_template: seeded.url_template })
        .where('id', '=', seeded.id)
        .execute();
    }
  });

  it('counts the clicks stored before book totals existed, one row a book', async () => {
    const { db } = context.store();
    const destination = await db.selectFrom('destinations').select('id').executeTakeFirstOrThrow();
    const at = '2026-01-01T00:00:00.000Z';
    const click = (bookId: number) => ({ book_id: bookId, destination_id: destination.id, created_at: at });
    await db.deleteFrom('clicks').execute();
    await db
      .insertInto('clicks')
      .values([click(501), click(501), click(501), click(502)])
      .execute();
    try {
      // The database as it was before 0035: clicks, and no totals.
      await db.schema.dropTable('book_clicks').execute();
      await bookClicksMigration(db as Kysely<unknown>, context.dialect);
      const rows = await db.selectFrom('book_clicks').selectAll().orderBy('book_id').execute();
      assert.deepEqual(
        rows.map((row) => [Number(row.book_id), Number(row.clicks)]),
        [
          [501, 3],
          [502, 1],
        ],
      );
    } finally {
      await db.deleteFrom('clicks').execute();
      await db.deleteFrom('book_clicks').execute();
    }
  });
});
