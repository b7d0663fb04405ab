/**
 * Issue 47's "done when": `/book/{slug}` with offers enabled against the same server without them, in
 * the same run, while offer reads run in the background. Two `booklink serve` processes (npm start's
 * `node dist/cli.js serve`, built from this source) on SQLite databases holding the same `--books`
 * books; one reads offers from local fake providers (Google Books `saleInfo`, iTunes storefront
 * prices, Open Library's Read API, each answer held back `--provider-delay` ms like a slow remote),
 * with offer budgets of `--budget` requests a minute per source and `PAGE_CACHE_MS` of `--page-cache`
 * ms, so pages expire, are rendered again and queue reads throughout; the other has `OFFER_SOURCES=off`.
 * wrk asks every book in turn for four countries (GB, DE, US, FR). Each round measures both, the order
 * alternating. Goal: throughput and p50/p99 latency with offers within 5 % of without.
 * `npx tsx bench/http/offers.ts [--books 100] [--duration 10] [--warmup 2] [--rounds 2] [--connections 50]
 *  [--budget 600] [--provider-delay 300] [--page-cache 2000]`
 */
import '../lib/help.js';
import { join } from 'node:path';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { addCatalogEntry, inventedIsbn } from '../../test/support/factories.js';
import { type FakeBook, startFakeProviders } from '../../test/support/fake-providers.js';
import {
  BROWSER_UA,
  type ChildServer,
  cpuSecondsOf,
  machineFacts,
  mean,
  option,
  startApp,
  withTempDir,
} from '../lib/harness.js';
import { type WrkRun, wrk, wrkSummary } from '../lib/wrk.js';

const books = option('books', 100);
const duration = option('duration', 10);
const warmup = option('warmup', 2);
const rounds = option('rounds', 2);
const connections = option('connections', 50);
const budget = option('budget', 600);
const providerDelay = option('provider-delay', 300);
const pageCache = option('page-cache', 2000);
const headers = { 'user-agent': BROWSER_UA, accept: 'text/html' };
const COUNTRIES = ['GB', 'DE', 'US', 'FR'];

function fakeBook(i: number): FakeBook {
  return {
    isbn13: inventedIsbn(50_000 + i),
    title: `Offer Bench Book ${i}`,
    authors: ['Bench Author'],
    offers: {
      google: {
        GB: { saleability: 'FOR_SALE', list: [9.99, 'GBP'], retail: [5 + (i % 5), 'GBP'] },
        DE: { saleability: 'FOR_SALE', retail: [6.49, 'EUR'] },
        US: { saleability: 'FREE' },
      },
      itunes: { GB: { price: 4.99, currency: 'GBP', formattedPrice: '£4.99' } },
      openlibrary: i % 2 === 0 ? 'lendable' : 'checked out',
    },
  };
}

async function database(dir: string, name: string, catalog: readonly FakeBook[]): Promise<string> {
  const url = `sqlite:${join(dir, `${name}.db`)}`;
  const store = openStore(url);
  try {
    await migrateToLatest(store);
    for (const book of catalog) {
      await addCatalogEntry(store, { isbn13: book.isbn13, title: book.title, authors: book.authors });
    }
  } finally {
    await store.close();
  }
  return url;
}

async function createBooks(server: ChildServer, catalog: readonly FakeBook[]): Promise<string[]> {
  const slugs: string[] = [];
  for (const book of catalog) {
    const response = await fetch(`${server.url}/isbn/${book.isbn13}`, { redirect: 'manual', headers });
    const location = response.headers.get('location');
    if (response.status !== 302 || !location) throw new Error(`/isbn/${book.isbn13}: ${response.status}`);
    slugs.push(location.slice('/book/'.length));
  }
  return slugs;
}

async function offerReads(databaseUrl: string): Promise<number> {
  const store = openStore(databaseUrl);
  try {
    const row = await store.db
      .selectFrom('offer_reads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('read_at', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await store.close();
  }
}

const ms = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));

await withTempDir(async (dir) => {
  const catalog = Array.from({ length: books }, (_, i) => fakeBook(i));
  const fake = await startFakeProviders();
  for (const book of catalog) fake.addBook(book);
  // Both servers alike but for OFFER_SOURCES: the same providers, the same fakes, the same caches.
  const common = {
    ...fake.env,
    PROVIDERS: 'local,openlibrary,googlebooks,itunes',
    RATE_LIMIT_ANON: '1000000',
    WRITE_LIMIT_BOOKS: '1000000',
    PAGE_CACHE_MS: String(pageCache),
  };
  const withOffersUrl = await database(dir, 'offers', catalog);
  const withoutUrl = await database(dir, 'plain', catalog);
  const servers = {
    without: await startApp(withoutUrl, { ...common, OFFER_SOURCES: 'off' }),
    with: await startApp(withOffersUrl, {
      ...common,
      OFFER_SOURCES: 'googlebooks,itunes,openlibrary',
      OFFER_BUDGET_GOOGLEBOOKS: `${budget}/min`,
      OFFER_BUDGET_ITUNES: `${budget}/min`,
      OFFER_BUDGET_OPENLIBRARY: `${budget}/min`,
    }),
  };
  try {
    const slugs = {
      without: await createBooks(servers.without, catalog),
      with: await createBooks(servers.with, catalog),
    };
    // Creating the books asked nothing of the fakes (the local catalog knew them); from here on every
    // provider answer is held back, as a slow remote's would be.
    fake.setFailure('googlebooks', { delayMs: providerDelay });
    fake.setFailure('itunes', { delayMs: providerDelay });
    fake.setFailure('openlibrary', { delayMs: providerDelay });
    const paths = (side: 'with' | 'without') =>
      slugs[side].flatMap((slug) => COUNTRIES.map((country) => `/book/${slug}?country=${country}`));
    console.log(machineFacts());
    console.log(
      `${books} books × ${COUNTRIES.length} countries; wrk ${connections} connections, ${duration} s per run; ` +
        `offer budget ${budget}/min per source, provider answers held ${providerDelay} ms, PAGE_CACHE_MS ${pageCache}`,
    );
    for (const side of ['without', 'with'] as const)
      await wrk(`${servers[side].url}/`, { connections, duration: warmup, headers, paths: paths(side) });
    const runs: Record<'with' | 'without', WrkRun[]> = { with: [], without: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const);
      for (const side of order) {
        const server = servers[side];
        const readsBefore = side === 'with' ? await offerReads(withOffersUrl) : 0;
        const asked = fake.requestCount();
        const cpuBefore = cpuSecondsOf(server);
        const run = await wrk(`${server.url}/`, { connections, duration, headers, paths: paths(side) });
        if (run.non2xx > 0) throw new Error(`${side}: ${run.non2xx} failed responses`);
        runs[side].push(run);
        const busy = (cpuSecondsOf(server) - cpuBefore) / run.seconds;
        const reads =
          side === 'with'
            ? `, offer reads stored ${(await offerReads(withOffersUrl)) - readsBefore}, provider requests ${fake.requestCount() - asked}`
            : '';
        console.log(
          `${wrkSummary(`round ${round + 1} offers ${side === 'with' ? 'on ' : 'off'}`, run)}, server CPU ${(busy * 100).toFixed(0)} %${reads}`,
        );
      }
    }
    const rate = (side: 'with' | 'without') => mean(runs[side].map((run) => run.rate));
    const p = (side: 'with' | 'without', key: 'p50' | 'p99') =>
      mean(runs[side].map((run) => run.latencyMs[key]));
    const ratio = rate('with') / rate('without');
    console.log(
      `offers on ${Math.round(rate('with'))} req/s, p50 ${ms(p('with', 'p50'))} ms, p99 ${ms(p('with', 'p99'))} ms; ` +
        `off ${Math.round(rate('without'))} req/s, p50 ${ms(p('without', 'p50'))} ms, p99 ${ms(p('without', 'p99'))} ms: ` +
        `throughput ${(ratio * 100).toFixed(1)} % (goal ≥ 95 %) ${ratio >= 0.95 ? 'MET' : 'MISSED'}`,
    );
    console.log(`offer reads stored in all: ${await offerReads(withOffersUrl)}`);
    console.log(machineFacts());
  } finally {
    for (const server of Object.values(servers)) {
      const code = await server.stop();
      if (code !== 0) process.exitCode = 1;
    }
    await fake.close();
  }
});
