import { csvRowParser, mapColumns } from './csv.js';
import type { DetectedFormat } from './detect.js';
import { gutenbergRowParser } from './gutenberg.js';
import { parseJsonLine } from './jsonl.js';
import { parseOpenLibraryLine } from './openlibrary.js';
import { readCsv, readLines } from './source.js';
import { ImportError, type ParseContext, type ParseResult } from './types.js';

/** A file's data rows; each is parsed only when called, so rows skipped on resume cost no parsing. */
export interface RowReader {
  rows: AsyncIterable<() => ParseResult>;
  bytesRead(): number;
  malformed(): number;
}

type RecordParser = (record: readonly string[]) => ParseResult;

function headerParser(
  file: string,
  header: readonly string[],
  detected: DetectedFormat,
  context: ParseContext,
) {
  if (detected.format === 'gutenberg') return gutenbergRowParser(header, context);
  const columns = mapColumns(header);
  if (columns.title === undefined && columns.originalTitle === undefined) {
    throw new ImportError(
      'unknown_format',
      `${file}: the CSV header has no title column (${header.join(', ')})`,
    );
  }
  return csvRowParser(header, context);
}

async function* csvRows(
  file: string,
  records: AsyncIterable<string[]>,
  detected: DetectedFormat,
  context: ParseContext,
): AsyncGenerator<() => ParseResult> {
  let parse: RecordParser | undefined;
  for await (const record of records) {
    if (!parse) {
      parse = headerParser(file, record, detected, context);
      continue;
    }
    const rowParser = parse;
    yield () => rowParser(record);
  }
}

async function* lineRows(
  lines: AsyncIterable<string>,
  parse: (line: string, context: ParseContext) => ParseResult,
  context: ParseContext,
): AsyncGenerator<() => ParseResult> {
  for await (const line of lines) yield () => parse(line, context);
}

export function openRows(
  file: string,
  gzip: boolean,
  detected: DetectedFormat,
  context: ParseContext,
): RowReader {
  if (detected.format === 'openlibrary' || detected.format === 'jsonl') {
    const source = readLines(file, gzip);
    const parse = detected.format === 'openlibrary' ? parseOpenLibraryLine : parseJsonLine;
    return { ...source, rows: lineRows(source.records, parse, context) };
  }
  const source = readCsv(file, gzip, detected.delimiter);
  return { ...source, rows: csvRows(file, source.records, detected, context) };
}
