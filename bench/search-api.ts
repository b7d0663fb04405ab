/**
 * `/api/v1/search` over HTTP on a local-catalog query mix, loaded by wrk from its own process, beside a
 * bare node:http server answering a search response of the same size, measured in the same run:
 * `npx tsx bench/search-api.ts [--entries 5000] [--duration 10] [--connections 20] [--rounds 2]`.
 * The catalog is invented (word lists, deterministic); PROVIDERS=local, so no provider is asked and
 * every request is the server's own work: validation, rate limit, search, the search log, JSON.
 * Goal (issue 14): at least 1,000 req/s with p99 under 50 ms.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/store/db.js';
import { migrateToLatest } from '../src/store/migrate.js';
import { addCatalogEntry } from '../test/support/factories.js';
import { BROWSER_UA, machineFacts, mean, option, startApp, startBare, withTempDir } from './harness.js';
import { rawGet, wrk, wrkSummary } from './wrk.js';

const entries = option('entries', 5000);
const connections = option('connections', 20);
const duration = option('duration', 10);
const warmup = option('warmup', 2);
const rounds = option('rounds', 2);

const ADJECTIVES = [
  'silent',
  'golden',
  'hidden',
  'broken',
  'distant',
  'burning',
  'last',
  'winter',
  'secret',
  'northern',
];
const NOUNS = [
  'river',
  'garden',
  'empire',
  'harbour',
  'kingdom',
  'lantern',
  'orchard',
  'voyage',
  'tower',
  'meadow',
];
const PLACES = [
  'of glass',
  'at dawn',
  'of salt',
  'in the dark',
  'of the north',
  'below',
  'of ash',
  'and stone',
];
const FIRST = ['Ada', 'Bram', 'Clara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas'];
const LAST = [
  'Whitlock',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Castell',
  'Brennan',
  'Novak',
  'Quill',
  'Reyes',
];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

/** A valid, invented 979-prefixed ISBN-13 per entry. */
function isbnFor(n: number): string {
  const twelve = `979${String(100_000_000 + n).padStart(9, '0')}`;
  const sum = [...twelve].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

interface Book {
  title: string;
  author: string;
}

async function catalog(dir: string): Promise<{ url: string; books: Book[] }> {
  const url = `sqlite:${join(dir, 'search.db')}`;
  const store = openStore(url);
  const next = random(42);
  const books: Book[] = [];
  try {
    await migrateToLatest(store);
    for (let n = 0; n < entries; n++) {
      const title = `The ${pick(next, ADJECTIVES)} ${pick(next, NOUNS)} ${pick(next, PLACES)}`;
      const author = `${pick(next, FIRST)} ${pick(next, LAST)}`;
      books.push({ title, author });
      await addCatalogEntry(store, {
        isbn13: isbnFor(n),
        title,
        authors: [author],
        format: 'paperback',
        popularity: Math.floor(next() * 100_000),
      });
    }
  } finally {
    await store.close();
  }
  return { url, books };
}

/** Titles, title + author, surnames with a title word, typos and authors: what readers type. */
function queryMix(books: readonly Book[], count: number): string[] {
  const next = random(7);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const book = pick(next, books);
    const surname = book.author.split(' ')[1] ?? '';
    const kinds = [
      book.title,
      `${book.title} ${book.author}`,
      `${surname} ${book.title.split(' ')[2] ?? ''}`,
      book.title.replace(/([aeiou])/, '$1$1'),
      book.author,
    ];
    const q = kinds[i % kinds.length] ?? book.title;
    paths.push(`/api/v1/search?q=${encodeURIComponent(q.toLowerCase())}&source=bench`);
  }
  return paths;
}

await withTempDir(async (dir) => {
  const { url: databaseUrl, books } = await catalog(dir);
  // Without a limit the anonymous rate limit would answer most of the load with 429s.
  const app = await startApp(databaseUrl, { RATE_LIMIT_ANON: '1000000' });
  try {
    const paths = queryMix(books, 500);
    const headers = { 'user-agent': BROWSER_UA, accept: 'application/json' };
    const sample = await rawGet(`${app.url}${paths[0]}`, headers);
    if (sample.status !== 200) throw new Error(`search answered ${sample.status}: ${sample.body}`);
    const file = join(dir, 'search.json');
    writeFileSync(file, sample.body);
    const bare = await startBare('page', file, ['application/json; charset=utf-8']);
    try {
      console.log(machineFacts());
      console.log(
        `${entries.toLocaleString('en-US')} catalog entries, ${paths.length} distinct queries in turn, ` +
          `${sample.body.length} bytes per answer; wrk ${connections} connections, ${duration} s per run`,
      );
      await wrk(app.url, { connections, duration: warmup, headers, paths, scriptDir: dir });
      const appRuns = [];
      const bareRates: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
        for (const side of order) {
          const run =
            side === 'app'
              ? await wrk(app.url, { connections, duration, headers, paths, scriptDir: dir })
              : await wrk(`${bare.url}/api/v1/search`, { connections, duration, headers });
          if (run.non2xx > 0) throw new Error(`${side}: ${run.non2xx} failed responses`);
          if (side === 'app') appRuns.push(run);
          else bareRates.push(run.rate);
          console.log(
            wrkSummary(
              `round ${round + 1} ${side === 'app' ? 'booklink /api/v1/search' : 'bare node:http'}`,
              run,
            ),
          );
        }
      }
      const rate = mean(appRuns.map((run) => run.rate));
      const p99 = Math.max(...appRuns.map((run) => run.latencyMs.p99));
      console.log(
        `booklink ${Math.round(rate)} req/s (p99 ${p99.toFixed(1)} ms) vs bare ${Math.round(mean(bareRates))} req/s: ` +
          `goal ≥ 1,000 req/s and p99 < 50 ms ${rate >= 1000 && p99 < 50 ? 'MET' : 'MISSED'}`,
      );
      console.log(machineFacts());
    } finally {
      await bare.stop();
    }
  } finally {
    const code = await app.stop();
    if (code !== 0) process.exitCode = 1;
  }
});
