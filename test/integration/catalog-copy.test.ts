import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { findCatalogEntryByIdentifier } from '../../src/services/resolve/catalog-identifiers.js';
import { bulkCatalogWriter, openBulkSession } from '../../src/store/catalog-copy.js';
import { PROVIDER_SOURCE, saveProviderEntry } from '../../src/store/catalog-identifiers.js';
import type { IdentifierPair } from '../../src/store/catalog-import.js';
import {
  deferCatalogIndexes,
  identifierRoute,
  restoreCatalogIndexes,
} from '../../src/store/deferred-indexes.js';
import { KeyFilter } from '../../src/store/key-filter.js';
import type { NewCatalogEntryRow } from '../../src/store/schema.js';
import { describeEachDialect } from '../support/databases.js';
import { indexedIdentifiers } from '../support/factories.js';

const NOW = '2024-03-01T10:00:00.000Z';

function row(isbn13: string, title: string, source = 'openlibrary'): NewCatalogEntryRow {
  return {
    entry_key: `isbn:${isbn13}`,
    source,
    isbn13,
    title,
    authors: '["Ada Quill"]',
    identifiers: '{}',
    match_key: title.toLowerCase(),
    popularity: 0,
    updated_at: NOW,
  };
}

const pairs = (isbn13: string, goodreads: string): IdentifierPair[] => [
  ['isbn13', isbn13],
  ['goodreads', goodreads],
];

describeEachDialect('bulk catalog writer, a first import', (context) => {
  beforeEach(async () => {
    await context.store().db.deleteFrom('catalog_identifiers').execute();
    await context.store().db.deleteFrom('catalog_entries').execute();
  });

  it('copies new keys straight in, upserts repeated ones, and merges a statement whose key the catalog held', async () => {
    const store = context.store();
    // A provider's answer filed before the import, under a key one of the editions has.
    await saveProviderEntry(
      store.db,
      { ...row('9780000000002', 'Filed before', PROVIDER_SOURCE), authors: '[]' },
      [
        ['isbn13', '9780000000002'],
        ['oclc', '41333709'],
      ],
    );
    await deferCatalogIndexes(store.db, store.dialect);
    const route = await identifierRoute(store.db);
    const session = await openBulkSession(store);
    const copied: string[] = [];
    const copy = session.store.copy;
    const bulk = copy
      ? {
          ...session.store,
          copy: (table: string, columns: readonly string[], text: readonly Buffer[]) => {
            copied.push(table);
            return copy(table, columns, text);
          },
        }
      : session.store;
    try {
      const written = new KeyFilter(100);
      await bulk.db.transaction().execute(async (trx) => {
        const writer = bulkCatalogWriter(trx, bulk, { identifierRoute: () => route, written });
        // The first statement: two new keys and the provider's; the copy fails on the third and the
        // statement is merged instead.
        for (const [isbn, title, goodreads] of [
          ['9780306406157', 'Lantern', '1'],
          ['9781861972712', 'Salt', '2'],
          ['9780000000002', 'Harbour', '3'],
        ] as const)
          await writer.add(row(isbn, title), pairs(isbn, goodreads));
        await writer.flush();
        // The second: a key written before (upserted) and a new one (copied straight in).
        await writer.add(row('9780306406157', 'Lantern, revised'), pairs('9780306406157', '4'));
        await writer.add(row('9780141439518', 'Iron'), pairs('9780141439518', '5'));
        await writer.flush();
      });
    } finally {
      await session.close();
    }
    if (store.dialect === 'postgres') {
      assert.deepEqual(copied, [
        'catalog_entries',
        'catalog_entries_load',
        'catalog_identifiers_keyed_load',
        'catalog_entries',
        'catalog_identifiers',
        'catalog_entries_load',
        'catalog_identifiers_keyed_load',
      ]);
    }
    assert.equal(await restoreCatalogIndexes(store), true);
    const entries = await store.db
      .selectFrom('catalog_entries')
      .select(['entry_key', 'title', 'source'])
      .orderBy('entry_key')
      .execute();
    assert.deepEqual(
      entries.map((e) => `${e.entry_key} ${e.title} ${e.source}`),
      [
        'isbn:9780000000002 Harbour openlibrary',
        'isbn:9780141439518 Iron openlibrary',
        'isbn:9780306406157 Lantern, revised openlibrary',
        'isbn:9781861972712 Salt openlibrary',
      ],
    );
    assert.deepEqual(await indexedIdentifiers(store), [
      'isbn:9780000000002 goodreads=3',
      'isbn:9780000000002 isbn13=9780000000002',
      'isbn:9780000000002 oclc=41333709',
      'isbn:9780141439518 goodreads=5',
      'isbn:9780141439518 isbn13=9780141439518',
      'isbn:9780306406157 goodreads=1',
      'isbn:9780306406157 goodreads=4',
      'isbn:9780306406157 isbn13=9780306406157',
      'isbn:9781861972712 goodreads=2',
      'isbn:9781861972712 isbn13=9781861972712',
    ]);
    const found = await findCatalogEntryByIdentifier(store.db, 'goodreads', '2');
    assert.equal(found?.title, 'Salt');
  });
});
