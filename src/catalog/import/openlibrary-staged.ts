import type { StagedAuthor, StagedWork } from '../../store/openlibrary-staging.js';
import { cleanText, lastSegment } from './fields.js';
import type { SkipReason } from './types.js';

// The lines of Open Library's authors and works dumps, parsed into the rows their staging tables keep
// (see store/openlibrary-staging): in the import's own thread, or in the parse worker for large dumps.

export type StagedKind = 'authors' | 'works';
export type StagedRow<K extends StagedKind> = K extends 'authors' ? StagedAuthor : StagedWork;
export type StagedLine<T> = { ok: true; row: T } | { ok: false; reason: SkipReason };

/** A staged dump's lines after the resume point, parsed, a chunk at a time. */
export interface StagedLines<K extends StagedKind> {
  chunks: AsyncGenerator<Array<StagedLine<StagedRow<K>>>>;
  bytesRead(): number;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJsonColumn(columns: readonly string[]): Json | SkipReason {
  try {
    const value: unknown = JSON.parse(columns[4] ?? '');
    return isObject(value) ? value : 'invalid_json';
  } catch {
    return 'invalid_json';
  }
}

/** One line of a dump of `type`: its key's last segment, its JSON record and its modification time. */
interface DumpLine {
  key: string | null;
  record: Json;
  modified: string | null;
}

function readDumpLine(line: string, type: string): DumpLine | SkipReason {
  const columns = line.split('\t');
  if (columns.length !== 5) return 'malformed_row';
  if (columns[0] !== type) return 'unexpected_type';
  const record = parseJsonColumn(columns);
  if (typeof record === 'string') return record;
  return { key: lastSegment(columns[1]), record, modified: cleanText(columns[3]) };
}

export function parseAuthorLine(line: string): StagedLine<StagedAuthor> {
  const read = readDumpLine(line, '/type/author');
  if (typeof read === 'string') return { ok: false, reason: read };
  const { key, record, modified } = read;
  const name = cleanText(record.name) ?? cleanText(record.personal_name);
  if (!key || !name) return { ok: false, reason: 'missing_name' };
  return { ok: true, row: { key, name, modified } };
}

/** "1869", "March 1869", "c1869" → 1869; a work's first publication year. */
function yearOf(value: unknown): number | null {
  const match = /(?:^|\D)(\d{4})(?:\D|$)/.exec(cleanText(value) ?? '');
  return match ? Number(match[1]) : null;
}

export function parseWorkLine(line: string): StagedLine<StagedWork> {
  const read = readDumpLine(line, '/type/work');
  if (typeof read === 'string') return { ok: false, reason: read };
  const { key, record, modified } = read;
  if (!key) return { ok: false, reason: 'malformed_row' };
  // Work authors are role objects: {"type": {"key": "/type/author_role"}, "author": {"key": "/authors/OL1A"}}.
  const authors = (Array.isArray(record.authors) ? record.authors : [])
    .map((role) => (isObject(role) && isObject(role.author) ? lastSegment(role.author.key) : null))
    .filter((author): author is string => !!author);
  return {
    ok: true,
    row: {
      key,
      title: cleanText(record.title),
      firstYear: yearOf(record.first_publish_date),
      authorKeys: authors.join(','),
      modified,
    },
  };
}

/** How each staged dump's lines parse. */
export function stagedLineParser<K extends StagedKind>(kind: K): (line: string) => StagedLine<StagedRow<K>> {
  // The conditional type cannot be narrowed by `kind`; each parser returns its kind's row.
  return (kind === 'authors' ? parseAuthorLine : parseWorkLine) as (line: string) => StagedLine<StagedRow<K>>;
}
