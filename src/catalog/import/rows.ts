import { csvRowParser, mapColumns } from './csv.js';
import type { DetectedFormat } from './detect.js';
import { gutenbergRowParser } from './gutenberg.js';
import { parseJsonLine } from './jsonl.js';
import { parseOpenLibraryLine } from './openlibrary.js';
import { readCsv, readLines } from './source.js';
import { ImportError, type ParseContext, type ParseResult } from './types.js';

/** A file's data rows after the resume point; each is parsed only when called. */
export interface RowReader {
  rows: AsyncIterable<() => ParseResult>;
  /**
   * The next row, parsed, when it is already at hand (the parse worker's rows come a chunk at a
   * time), else undefined: then `rows` waits for it. Taking rows in between is the same sequence.
   */
  take?(): ParseResult | undefined;
  bytesRead(): number;
  malformed(): number;
  /** Stops reading early (an import that failed or was interrupted); safe to call after the end. */
  close(): Promise<void>;
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
  skip: number,
): AsyncGenerator<() => ParseResult> {
  let parse: RecordParser | undefined;
  let index = 0;
  for await (const record of records) {
    if (!parse) {
      parse = headerParser(file, record, detected, context);
      continue;
    }
    // Rows an earlier run committed are passed over unparsed.
    if (index++ < skip) continue;
    const rowParser = parse;
    yield () => rowParser(record);
  }
}

async function* lineRows(
  lines: AsyncIterable<string>,
  parse: (line: string, context: ParseContext) => ParseResult,
  context: ParseContext,
  skip: number,
): AsyncGenerator<() => ParseResult> {
  let index = 0;
  for await (const line of lines) if (index++ >= skip) yield () => parse(line, context);
}

function closable(
  source: Omit<RowReader, 'rows' | 'close'>,
  rows: AsyncGenerator<() => ParseResult>,
): RowReader {
  return {
    rows,
    bytesRead: source.bytesRead,
    malformed: source.malformed,
    // Returning the generator ends the `for await` over the stream, which destroys it.
    close: async () => void (await rows.return(undefined)),
  };
}

/** How a line format's lines parse; null for CSV, whose records span lines. */
export function lineParser(
  detected: DetectedFormat,
): ((line: string, context: ParseContext) => ParseResult) | null {
  if (detected.format === 'openlibrary') return parseOpenLibraryLine;
  if (detected.format === 'jsonl') return parseJsonLine;
  return null;
}

/** Opens a file's rows in this thread; `skip` data rows (a resume point) are passed over unparsed. */
export function openRows(
  file: string,
  gzip: boolean,
  detected: DetectedFormat,
  context: ParseContext,
  skip = 0,
): RowReader {
  const parse = lineParser(detected);
  if (parse) {
    const source = readLines(file, gzip);
    return closable(source, lineRows(source.records, parse, context, skip));
  }
  const source = readCsv(file, gzip, detected.delimiter);
  return closable(source, csvRows(file, source.records, detected, context, skip));
}
