/**
 * Synthetic Open Library dumps: `npx tsx bench/lib/openlibrary-dumps.ts --editions N [--out DIR] [--gzip] [--seed S]`.
 * Writes `ol_dump_authors.txt`, `ol_dump_works.txt` and `ol_dump_editions.txt` (`.gz` with --gzip) in
 * the exact line format of Open Library's monthly dumps (type, key, revision, last_modified, JSON with
 * Python's `", "`/`": "` separators and \uXXXX escapes), with their quirks: `{type, value}` datetimes,
 * work author roles whose `type` is an object or a bare string, ISBNs as arrays of unhyphenated
 * strings, editions without ISBN (about a quarter), without work or without authors, OCLC and LCCN
 * lists, Goodreads/LibraryThing identifiers, -1 covers. About 2.5 editions per work, 2 works per author.
 * Deterministic for a seed. Output goes to .bench-tmp/ by default (git-ignored): never commit it.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createGzip } from 'node:zlib';

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** JSON as Python's json.dumps writes it: ", " and ": " separators, non-ASCII as \uXXXX. */
export function pythonJson(value: Value): string {
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`)
    .join(', ')}}`;
}

/** mulberry32: a small, fast, seeded generator (bench/import/openlibrary-kill.ts draws its kill points with it too). */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

const FIRST = [
  'James',
  'Mary',
  'Jean',
  'Marie',
  'Hans',
  'Anna',
  'Giovanni',
  'Sofia',
  'José',
  'María',
  'Ivan',
  'Olga',
  'Hiroshi',
  'Yuki',
  'Wei',
  'Li',
  'Ahmed',
  'Fatima',
  'Pierre',
  'Élise',
  'Jürgen',
  'Ingrid',
  'Lars',
  'Astrid',
  'Patrick',
  'Siobhan',
  'Kwame',
  'Amara',
  'Raj',
  'Priya',
  'Tomás',
  'Lucía',
  'Mikhail',
  'Natalia',
  'George',
  'Jane',
  'Charles',
  'Emily',
  'Fyodor',
  'Leo',
  'Virginia',
  'Ernest',
  'Toni',
  'Gabriel',
  'Isabel',
  'Haruki',
  'Chinua',
  'Margaret',
  'W. H.',
  'J. R.',
];
const LAST = [
  'Smith',
  'Johnson',
  'Müller',
  'Schmidt',
  'Dupont',
  'Lefèvre',
  'Rossi',
  'Bianchi',
  'García',
  'Fernández',
  'Ivanov',
  'Petrova',
  'Tanaka',
  'Suzuki',
  'Wang',
  'Zhang',
  'Hassan',
  'Khan',
  'Nowak',
  'Kowalski',
  'Andersen',
  'Nilsson',
  "O'Brien",
  'Murphy',
  'Mensah',
  'Okafor',
  'Patel',
  'Sharma',
  'Silva',
  'Santos',
  'Dostoyevsky',
  'Tolstoy',
  'Woolf',
  'Hemingway',
  'Morrison',
  'Márquez',
  'Allende',
  'Murakami',
  'Achebe',
  'Atwood',
  'Austen',
  'Dickens',
  'Brontë',
  'Orwell',
  'Eliot',
  'Hardy',
  'Conrad',
  'Kafka',
  'Mann',
  'Hesse',
];
const WORDS = [
  'war',
  'peace',
  'house',
  'garden',
  'river',
  'night',
  'shadow',
  'light',
  'history',
  'introduction',
  'guide',
  'handbook',
  'principles',
  'theory',
  'practice',
  'letters',
  'poems',
  'stories',
  'journey',
  'island',
  'city',
  'king',
  'queen',
  'children',
  'mountain',
  'sea',
  'winter',
  'summer',
  'secret',
  'memory',
  'education',
  'law',
  'medicine',
  'economics',
  'politics',
  'philosophy',
  'religion',
  'art',
  'music',
  'science',
  'nature',
  'empire',
  'revolution',
  'love',
  'death',
  'life',
  'world',
  'America',
  'Europe',
  'Russia',
  'London',
  'Paris',
  'twentieth',
  'century',
  'modern',
  'ancient',
  'early',
  'new',
  'old',
  'great',
  'little',
  'lost',
  'last',
  'first',
  'red',
  'black',
  'white',
  'golden',
  'Geschichte',
  'Einführung',
  'histoire',
  'française',
  'política',
  'historia',
  'mundo',
  'rivière',
  'Straße',
  'Ökonomie',
];
const JOINERS = ['of', 'and', 'the', 'in', 'for', 'to', 'on'];
const PUBLISHERS = [
  'Penguin Books',
  'Oxford University Press',
  'Stationery Office',
  'Bernan Press',
  'Gallimard',
  'Suhrkamp',
  'Random House',
  'HarperCollins',
  'Cambridge University Press',
  'Springer',
  'Routledge',
  'Vintage',
  'Editorial Planeta',
  'Dover Publications',
  'Macmillan',
  'Scholastic',
  'Hachette',
  'Wiley',
  'Feltrinelli',
  'Nauka',
];
const FORMATS = [
  'Paperback',
  'Paperback',
  'Paperback',
  'Hardcover',
  'Hardcover',
  'Unknown Binding',
  'Mass Market Paperback',
  'Library Binding',
  'Spiral-bound',
  'Audio CD',
  'Ring-bound',
  'Board book',
];
const LANGUAGES = [
  'eng',
  'eng',
  'eng',
  'eng',
  'ger',
  'fre',
  'spa',
  'ita',
  'rus',
  'jpn',
  'por',
  'dut',
  'pol',
  'chi',
];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SUBJECTS = [
  'History',
  'Fiction',
  'Politics / Current Events',
  'Government - Comparative',
  'Juvenile fiction',
  'Philosophy',
  'Economics',
  'Poetry',
  'Law',
  'Medicine',
  'Religion',
  'Science',
  'Biography',
  'Travel',
];

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function title(r: ReturnType<typeof random>): string {
  const words = [capital(r.pick(WORDS))];
  const length = 1 + r.int(5);
  for (let i = 0; i < length; i++) words.push(r.chance(0.3) ? r.pick(JOINERS) : r.pick(WORDS));
  return (r.chance(0.15) ? 'The ' : '') + words.join(' ');
}

function timestamp(r: ReturnType<typeof random>): string {
  const year = 2008 + r.int(16);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${year}-${pad(1 + r.int(12))}-${pad(1 + r.int(28))}T${pad(r.int(24))}:${pad(r.int(60))}:${pad(r.int(60))}.${pad(r.int(1_000_000), 6)}`;
}

const datetime = (value: string): Value => ({ type: '/type/datetime', value });

function isbn13Of(serial: number): string {
  const first12 = `978${String(serial % 1_000_000_000).padStart(9, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(first12[i]);
  return first12 + String((10 - (sum % 10)) % 10);
}

function isbn10Of(isbn13: string): string {
  const body = isbn13.slice(3, 12);
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (10 - i) * Number(body[i]);
  const check = (11 - (sum % 11)) % 11;
  return body + (check === 10 ? 'X' : String(check));
}

function dumpLine(type: string, key: string, revision: number, modified: string, record: Value): string {
  return `${type}\t${key}\t${revision}\t${modified}\t${pythonJson(record)}\n`;
}

export function authorLine(r: ReturnType<typeof random>, id: number): string {
  const name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
  const modified = timestamp(r);
  const revision = 1 + r.int(4);
  const record: Record<string, Value> = { name };
  if (r.chance(0.8)) record.personal_name = name;
  if (r.chance(0.25)) record.birth_date = String(1800 + r.int(190));
  if (r.chance(0.2)) record.created = datetime(modified);
  record.last_modified = datetime(modified);
  if (r.chance(0.2)) record.latest_revision = revision;
  record.key = `/authors/OL${id}A`;
  record.type = { key: '/type/author' };
  record.revision = revision;
  return dumpLine('/type/author', `/authors/OL${id}A`, revision, modified, record);
}

export function workLine(
  r: ReturnType<typeof random>,
  id: number,
  authors: number,
  workTitle: string,
): string {
  const modified = timestamp(r);
  const revision = 1 + r.int(5);
  const record: Record<string, Value> = { title: workTitle, created: datetime('2009-12-11T01:57:19.964652') };
  if (r.chance(0.3)) record.covers = [3_000_000 + r.int(9_000_000)];
  if (r.chance(0.6))
    record.first_publish_date = r.chance(0.7)
      ? String(1850 + r.int(170))
      : `${r.pick(MONTHS)} ${1850 + r.int(170)}`;
  if (r.chance(0.2)) record.subjects = [r.pick(SUBJECTS), r.pick(SUBJECTS)];
  record.last_modified = datetime(modified);
  record.latest_revision = revision;
  record.key = `/works/OL${id}W`;
  const roleType: Value = r.chance(0.5) ? { key: '/type/author_role' } : '/type/author_role';
  const count = r.chance(0.9) ? 1 : 2;
  record.authors = Array.from({ length: count }, () => ({
    type: roleType,
    author: { key: `/authors/OL${1 + r.int(authors)}A` },
  }));
  record.type = { key: '/type/work' };
  record.revision = revision;
  return dumpLine('/type/work', `/works/OL${id}W`, revision, modified, record);
}

export function editionLine(
  r: ReturnType<typeof random>,
  id: number,
  work: number,
  authors: number,
  workTitle: string,
): string {
  const modified = timestamp(r);
  const revision = 1 + r.int(5);
  const record: Record<string, Value> = {};
  record.publishers = [r.pick(PUBLISHERS)];
  if (r.chance(0.85)) record.physical_format = r.chance(0.005) ? 'Microfiche' : r.pick(FORMATS);
  if (r.chance(0.3)) record.subtitle = title(r);
  record.title = r.chance(0.8) ? workTitle : title(r);
  const isbn13 = isbn13Of(id * 7 + 11);
  const hasIsbn = r.chance(0.75);
  if (hasIsbn && r.chance(0.95)) record.isbn_10 = [isbn10Of(isbn13)];
  const ids: Record<string, Value> = {};
  if (r.chance(0.35)) ids.goodreads = [String(1 + r.int(40_000_000))];
  if (r.chance(0.2)) ids.librarything = [String(1 + r.int(20_000_000))];
  if (r.chance(0.01)) ids.amazon = [`B0${String(r.int(1e8)).padStart(8, '0')}`];
  if (Object.keys(ids).length > 0) record.identifiers = ids;
  if (hasIsbn && r.chance(0.85)) record.isbn_13 = [isbn13];
  if (r.chance(0.5)) record.languages = [{ key: `/languages/${r.pick(LANGUAGES)}` }];
  if (r.chance(0.6)) record.number_of_pages = 16 + r.int(900);
  if (r.chance(0.3)) record.oclc_numbers = [String(1_000_000 + r.int(900_000_000))];
  if (r.chance(0.1)) record.lccn = [String(50_000_000 + r.int(49_999_999))];
  if (r.chance(0.2)) record.covers = r.chance(0.05) ? [-1] : [1_000_000 + r.int(12_000_000)];
  if (r.chance(0.12)) record.by_statement = `by ${r.pick(FIRST)} ${r.pick(LAST)}.`;
  if (r.chance(0.95)) {
    record.publish_date = r.chance(0.5)
      ? String(1900 + r.int(124))
      : `${r.pick(MONTHS)} ${1 + r.int(28)}, ${1900 + r.int(124)}`;
  }
  record.last_modified = datetime(modified);
  if (r.chance(0.9)) record.latest_revision = revision;
  record.key = `/books/OL${id}M`;
  if (r.chance(0.8)) record.authors = [{ key: `/authors/OL${1 + r.int(authors)}A` }];
  if (r.chance(0.8)) record.works = [{ key: `/works/OL${work}W` }];
  record.type = { key: '/type/edition' };
  if (r.chance(0.6)) record.subjects = [r.pick(SUBJECTS)];
  if (r.chance(0.65)) record.created = datetime('2008-04-01T03:28:50.625462');
  record.revision = revision;
  return dumpLine('/type/edition', `/books/OL${id}M`, revision, modified, record);
}

function output(file: string, gzip: boolean) {
  const out = createWriteStream(file);
  if (!gzip) return { stream: out, done: new Promise<void>((ok) => out.on('finish', () => ok())) };
  const zip = createGzip({ level: 1 });
  zip.pipe(out);
  return { stream: zip, done: new Promise<void>((ok) => out.on('finish', () => ok())) };
}

async function writeLines(file: string, gzip: boolean, count: number, make: (i: number) => string) {
  const { stream, done } = output(file, gzip);
  let buffer = '';
  for (let i = 1; i <= count; i++) {
    buffer += make(i);
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await new Promise<void>((ok) => stream.once('drain', () => ok()));
      buffer = '';
    }
  }
  stream.end(buffer);
  await done;
}

export interface GeneratedDumps {
  authors: string;
  works: string;
  editions: string;
  counts: { authors: number; works: number; editions: number };
}

/** Writes the three dumps for `editions` editions; works and authors scale with it. */
export async function generateDumps(options: {
  editions: number;
  out: string;
  gzip?: boolean;
  seed?: number;
}): Promise<GeneratedDumps> {
  const editions = options.editions;
  const works = Math.max(1, Math.round(editions / 2.5));
  const authors = Math.max(1, Math.round(works / 2));
  const seed = options.seed ?? 42;
  const gzip = options.gzip ?? false;
  mkdirSync(options.out, { recursive: true });
  const name = (kind: string) => join(options.out, `ol_dump_${kind}.txt${gzip ? '.gz' : ''}`);
  // Work titles are derived from the work id, so editions name their work's title without a lookup table.
  const workTitle = (id: number) => title(random(seed * 7919 + id));
  const ra = random(seed);
  await writeLines(name('authors'), gzip, authors, (i) => authorLine(ra, i));
  const rw = random(seed + 1);
  await writeLines(name('works'), gzip, works, (i) => workLine(rw, i, authors, workTitle(i)));
  const re = random(seed + 2);
  await writeLines(name('editions'), gzip, editions, (i) => {
    // Editions of one work are spread over the file, as in the real dump.
    const work = 1 + ((Math.imul(i, 2654435761) >>> 0) % works);
    return editionLine(re, i, work, authors, workTitle(work));
  });
  return {
    authors: name('authors'),
    works: name('works'),
    editions: name('editions'),
    counts: { authors, works, editions },
  };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const editions = Number(value('--editions') ?? 10_000);
  const out = resolve(value('--out') ?? '.bench-tmp/openlibrary');
  const started = performance.now();
  const result = await generateDumps({
    editions,
    out,
    gzip: args.includes('--gzip'),
    seed: Number(value('--seed') ?? 42),
  });
  console.log(
    `wrote ${result.counts.editions} editions, ${result.counts.works} works, ${result.counts.authors} authors to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
