// Gzipped weight of the drop-in embed, as a browser receives it: /embed.js (stylesheet inlined), and the
// /embed/{slug} iframe page with its stylesheet and script. Usage: npx tsx bench/http/embed-size.ts
import '../lib/help.js';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices } from '../../src/services/container.js';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';

const store = openStore('sqlite::memory:');
await migrateToLatest(store);
const services = createServices(
  loadConfig({ BASE_URL: 'http://localhost:8080', PROVIDERS: 'local' }),
  store,
  {
    remote: null,
  },
);
const app = await buildApp({ services });
const ua = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36' };
const book = await services.creator.createFromRecord({
  source: 'bench',
  isbn13: '9780141439518',
  isbn10: '0141439513',
  title: 'Pride and Prejudice',
  subtitle: null,
  authors: ['Jane Austen'],
  publishedDate: '2002-12-31',
  publisher: 'Penguin Classics',
  coverUrl: 'https://covers.openlibrary.org/b/isbn/9780141439518-L.jpg',
  language: 'en',
  format: 'paperback',
  pages: 480,
  description: null,
  identifiers: { gutenberg: '1342' },
  workKey: null,
});
const get = async (url: string) => (await app.inject({ url, headers: ua })).rawPayload;
const size = (body: Buffer) => ({ raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
const script = size(await get('/embed.js'));
const json = size(await get(`/embed/${book.slug}.json?partner=acme`));
const page = await get(`/embed/${book.slug}?partner=acme`);
const assets = [...page.toString().matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)].map((m) => m[1] ?? '');
const parts = [size(page), ...(await Promise.all(assets.map(async (a) => size(await get(a)))))];
const frame = parts.reduce((sum, part) => ({ raw: sum.raw + part.raw, gzip: sum.gzip + part.gzip }));
console.log(JSON.stringify({ script, json, iframePage: size(page), iframeTotal: frame }, null, 1));
await app.close();
await services.close();
