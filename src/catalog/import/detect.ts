import { extname } from 'node:path';
import { ImportError, type ImportFormat } from './types.js';

export interface DetectedFormat {
  format: ImportFormat;
  /** Field delimiter for the CSV-based formats. */
  delimiter: string;
}

const OPENLIBRARY_LINE = /^\/type\/[a-z_]+\t\/[a-z_]+\/\S+\t/;

function firstLine(text: string): string {
  return (text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '').trim();
}

function delimiterOf(header: string): string {
  return header.includes('\t') && !header.includes(',') ? '\t' : ',';
}

function isGutenbergHeader(header: string): boolean {
  return /^"?text#"?[,\t]/i.test(header) && /\bauthors\b/i.test(header);
}

function fromContent(head: string): ImportFormat | null {
  const line = firstLine(head);
  if (OPENLIBRARY_LINE.test(line)) return 'openlibrary';
  if (line.startsWith('{')) return 'jsonl';
  if (isGutenbergHeader(line)) return 'gutenberg';
  if (/[,\t]/.test(line) && /\b(isbn|title)/i.test(line)) return 'csv';
  return null;
}

/**
 * The format from `--format`, else from the content, else from the extension (".gz" looked through).
 * Content wins over the extension because dumps are often renamed (`ol_dump_editions.txt`, `books.tsv`).
 */
export function detectFormat(file: string, head: string, requested?: ImportFormat): DetectedFormat {
  const delimiter = delimiterOf(firstLine(head));
  if (requested) return { format: requested, delimiter };
  const byExtension: Record<string, ImportFormat> = { '.jsonl': 'jsonl', '.ndjson': 'jsonl' };
  const format = fromContent(head) ?? byExtension[extname(file.replace(/\.gz$/i, '')).toLowerCase()];
  if (!format) {
    throw new ImportError(
      'unknown_format',
      `cannot tell the format of ${file}; pass --format openlibrary|csv|jsonl|gutenberg`,
    );
  }
  return { format, delimiter };
}
