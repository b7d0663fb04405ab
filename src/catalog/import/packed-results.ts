import type { NewCatalogEntryRow } from '../../store/schema.js';
import type { EntryLinks, ParseResult, SkipReason } from './types.js';

// The parse worker's results cross to the writing thread as one string a chunk instead of structured-
// cloned objects: cloning wrote and read every property name of every row, and the writing thread
// (the import's bottleneck on SQLite) paid for rebuilding each object key by key. Each value is tagged:
// `s<length>:<text>` a string (any characters; the length makes escaping unnecessary), `n<number>;`
// a number, `_` null or absent, `#<count>;` a list length. A row starts with `+` (an entry) or `-`
// (a skip).

type EntryField = Exclude<keyof NewCatalogEntryRow, 'id'>;

/** Every field of an entry row but its database id, in packing order. */
const ENTRY_FIELDS = [
  'entry_key',
  'source',
  'isbn13',
  'isbn10',
  'title',
  'subtitle',
  'authors',
  'published_date',
  'publisher',
  'cover_url',
  'language',
  'format',
  'pages',
  'description',
  'identifiers',
  'match_key',
  'popularity',
  'updated_at',
  'work_key',
  'work_title',
  'first_year',
  'source_modified',
] as const satisfies readonly EntryField[];

function packValue(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '_';
  if (typeof value === 'number') return `n${value};`;
  return `s${value.length}:${value}`;
}

function packList(values: readonly string[] | undefined): string {
  if (!values) return '_';
  let text = `#${values.length};`;
  for (const value of values) text += packValue(value);
  return text;
}

function packResult(result: ParseResult): string {
  if (!result.ok) return `-${packValue(result.reason)}${packValue(result.removes)}`;
  let text = '+';
  const entry = result.entry;
  for (const field of ENTRY_FIELDS) text += packValue(entry[field]);
  const links = result.links;
  if (!links) return `${text}__`;
  if (links.identifiers) {
    text += `#${links.identifiers.length};`;
    for (const [scheme, value] of links.identifiers) text += packValue(scheme) + packValue(value);
  } else text += '_';
  return text + packList(links.authorKeys);
}

/** One chunk of results as one string. */
export function packResults(results: readonly ParseResult[]): string {
  let text = '';
  for (const result of results) text += packResult(result);
  return text;
}

/** Reads what `packResults` wrote, value by value. */
class Reader {
  at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at >= this.text.length;
  }

  tag(): string {
    return this.text[this.at++] ?? '';
  }

  private number(end: string): number {
    const stop = this.text.indexOf(end, this.at);
    const value = Number(this.text.slice(this.at, stop));
    this.at = stop + 1;
    return value;
  }

  value(): string | number | null {
    const tag = this.tag();
    if (tag === '_') return null;
    if (tag === 'n') return this.number(';');
    if (tag !== 's') throw new Error(`packed results: unexpected tag ${JSON.stringify(tag)} at ${this.at - 1}`);
    const length = this.number(':');
    const value = this.text.slice(this.at, this.at + length);
    this.at += length;
    return value;
  }

  string(): string | null {
    const value = this.value();
    return value === null ? null : String(value);
  }

  /** A list's length, or null for an absent list. */
  count(): number | null {
    const tag = this.tag();
    if (tag === '_') return null;
    if (tag !== '#') throw new Error(`packed results: expected a list at ${this.at - 1}`);
    return this.number(';');
  }
}

/**
 * An object literal in `ENTRY_FIELDS` order (the unit test round-trips every field): one allocation
 * of a fixed shape, where adding the fields one by one grew each object through a chain of shapes.
 * Values keep the type they were packed with; an absent field comes back as null.
 */
function unpackEntry(r: Reader): NewCatalogEntryRow {
  const text = () => r.value() as string;
  const number = () => r.value() as number;
  // `satisfies`: a field added to the table and missing here fails to compile.
  return {
    entry_key: text(),
    source: text(),
    isbn13: text(),
    isbn10: text(),
    title: text(),
    subtitle: text(),
    authors: text(),
    published_date: text(),
    publisher: text(),
    cover_url: text(),
    language: text(),
    format: text(),
    pages: number(),
    description: text(),
    identifiers: text(),
    match_key: text(),
    popularity: number(),
    updated_at: text(),
    work_key: text(),
    work_title: text(),
    first_year: number(),
    source_modified: text(),
  } satisfies Required<Omit<NewCatalogEntryRow, 'id'>>;
}

function unpackLinks(reader: Reader): EntryLinks | undefined {
  const pairs = reader.count();
  let identifiers: Array<readonly [string, string]> | undefined;
  if (pairs !== null) {
    identifiers = new Array(pairs);
    for (let i = 0; i < pairs; i++) identifiers[i] = [reader.string() ?? '', reader.string() ?? ''];
  }
  const keys = reader.count();
  let authorKeys: string[] | undefined;
  if (keys !== null) {
    authorKeys = new Array(keys);
    for (let i = 0; i < keys; i++) authorKeys[i] = reader.string() ?? '';
  }
  if (!identifiers && !authorKeys) return undefined;
  const links: EntryLinks = {};
  if (identifiers) links.identifiers = identifiers;
  if (authorKeys) links.authorKeys = authorKeys;
  return links;
}

/** The results of one packed chunk, in order. */
export function unpackResults(text: string): ParseResult[] {
  const reader = new Reader(text);
  const results: ParseResult[] = [];
  while (!reader.done()) {
    const kind = reader.tag();
    if (kind === '-') {
      const reason = reader.string() as SkipReason;
      const removes = reader.string();
      results.push(removes === null ? { ok: false, reason } : { ok: false, reason, removes });
    } else if (kind === '+') {
      const entry = unpackEntry(reader);
      const links = unpackLinks(reader);
      results.push(links ? { ok: true, entry, links } : { ok: true, entry });
    } else throw new Error(`packed results: unexpected row tag ${JSON.stringify(kind)}`);
  }
  return results;
}
