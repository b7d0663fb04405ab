/** A fresh, migrated SQLite database holding the catalog entries the page and /go/ benchmarks use. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { insertPartner, upsertPartnerTag } from '../../src/store/partners.js';
import { addCatalogEntry } from '../../test/support/factories.js';
import { BROWSER_UA, type ChildServer, startApp, startBare, withTempDir } from './harness.js';
import { rawGet } from './wrk.js';

export const BENCH_ISBN = '9780141439518';

export async function bookDatabase(dir: string): Promise<string> {
  const url = `sqlite:${join(dir, 'bench.db')}`;
  const store = openStore(url);
  try {
    await migrateToLatest(store);
    await addCatalogEntry(store, {
      isbn13: BENCH_ISBN,
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      publishedDate: '2002-12-31',
      publisher: 'Penguin Classics',
      format: 'paperback',
      coverUrl: `https://covers.openlibrary.org/b/isbn/${BENCH_ISBN}-L.jpg`,
    });
    // A Gutenberg edition, so the page carries the "free" group too: a typical full page.
    await addCatalogEntry(store, {
      source: 'gutenberg',
      entryKey: 'gutenberg:1342',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      identifiers: { gutenberg: '1342' },
    });
  } finally {
    await store.close();
  }
  return url;
}

/** Creates the book the way a reader does (a first visit to /isbn/) and answers its slug. */
export async function createBook(baseUrl: string, isbn = BENCH_ISBN): Promise<string> {
  const response = await fetch(`${baseUrl}/isbn/${isbn}`, {
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_UA },
  });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`/isbn/${isbn} answered ${response.status}`);
  return location.replace('/book/', '');
}

export async function countClicks(url: string): Promise<number> {
  const store: Store = openStore(url);
  try {
    const row = await store.db
      .selectFrom('clicks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await store.close();
  }
}

/** A partner with its own Amazon tag, for `/go/?partner=` runs (`bench/http/go.ts --partner`). */
export async function addBenchPartner(url: string, id: string): Promise<void> {
  const store: Store = openStore(url);
  try {
    await insertPartner(store.db, id, { name: 'Bench partner', contact: '', isActive: true, apiKeyId: null });
    await upsertPartnerTag(store.db, id, {
      destinationSlug: 'amazon',
      country: null,
      tag: 'benchpartner-20',
    });
  } finally {
    await store.close();
  }
}

/** The bench book's page on booklink beside a bare node:http server answering its very bytes. */
export interface BookPageServers {
  app: ChildServer;
  bare: ChildServer;
  /** A bare server that also sends every header the real one sent with the page (CSP, CORS, Vary…). */
  bareWithHeaders: ChildServer;
  slug: string;
  /** The page on booklink, and the same path on the bare server. */
  pageUrl: string;
  bareUrl: string;
  bareWithHeadersUrl: string;
  bytes: number;
  /** The Content-Encoding both send ('' when none). */
  encoding: string;
}

/**
 * Starts `booklink serve` on the bench database, creates the book, fetches its page with `headers` and
 * starts the bare server answering those bytes with the same type and encoding; both are stopped after
 * `use`, and an unclean exit of booklink fails the run.
 */
export async function withBookPageServers(
  headers: Record<string, string>,
  use: (servers: BookPageServers) => Promise<void>,
): Promise<void> {
  await withTempDir(async (dir) => {
    const app = await startApp(await bookDatabase(dir));
    try {
      const slug = await createBook(app.url);
      const pageUrl = `${app.url}/book/${slug}`;
      const page = await rawGet(pageUrl, headers);
      if (page.status !== 200) throw new Error(`${pageUrl} answered ${page.status}`);
      const encoding =
        typeof page.headers['content-encoding'] === 'string' ? page.headers['content-encoding'] : '';
      const file = join(dir, 'page.bin');
      writeFileSync(file, page.body);
      const contentHeaders = ['text/html; charset=utf-8', ...(encoding ? [encoding] : [])];
      const bare = await startBare('page', file, contentHeaders);
      // Every header but the ones node:http writes itself or the bare server sets from its arguments.
      const own = [
        'date',
        'connection',
        'keep-alive',
        'transfer-encoding',
        'content-length',
        'content-type',
        'content-encoding',
      ];
      const sent = Object.fromEntries(Object.entries(page.headers).filter(([name]) => !own.includes(name)));
      const headersFile = join(dir, 'headers.json');
      writeFileSync(headersFile, JSON.stringify(sent));
      const bareWithHeaders = await startBare('page', file, [
        ...contentHeaders,
        ...(encoding ? [] : ['']),
        headersFile,
      ]);
      try {
        await use({
          app,
          bare,
          bareWithHeaders,
          slug,
          pageUrl,
          bareUrl: `${bare.url}/book/${slug}`,
          bareWithHeadersUrl: `${bareWithHeaders.url}/book/${slug}`,
          bytes: page.body.length,
          encoding,
        });
      } finally {
        await bare.stop();
        await bareWithHeaders.stop();
      }
    } finally {
      const code = await app.stop();
      if (code !== 0) process.exitCode = 1;
    }
  });
}
