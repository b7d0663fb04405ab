import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readLineChunks, readLines } from '../../src/catalog/import/source.js';

const dir = mkdtempSync(join(tmpdir(), 'booklink-source-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Lines of every length around the reader's chunk size: short ones, ones of a few KB, one longer than
 * a whole chunk, multi-byte characters and CRLF endings, so lines and line ends fall across chunks.
 */
function sampleLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    const body = i % 7 === 0 ? 'é'.repeat(1500 + i) : `line ${i} `.repeat((i * 37) % 900);
    lines.push(`${i}\t${body}`);
  }
  lines.splice(200, 0, `long\t${'x'.repeat(200_000)}`);
  lines.push('last\tno newline after it');
  return lines;
}

async function collect(file: string, gzip: boolean): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readLines(file, gzip).records) lines.push(line);
  return lines;
}

describe('reading a text file a chunk of lines at a time', () => {
  const expected = sampleLines();
  // CRLF and LF endings mixed, blank and whitespace-only lines between, no newline after the last line.
  const text = expected
    .map((line, i) => (i % 3 === 0 ? `${line}\r\n` : i % 5 === 0 ? `${line}\n\n  \n` : `${line}\n`))
    .join('')
    .replace(/\r?\n$/, '');

  it('gives back every non-empty line whole, whatever chunk its end falls in', async () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, text);
    const lines = await collect(file, false);
    assert.equal(lines.length, expected.length);
    assert.deepEqual(lines, expected);
  });

  it('reads a gzip file to the same lines', async () => {
    const file = join(dir, 'lines.txt.gz');
    writeFileSync(file, gzipSync(text));
    assert.deepEqual(await collect(file, true), expected);
  });

  it('counts every byte of the file as read by the end', async () => {
    const file = join(dir, 'bytes.txt');
    writeFileSync(file, text);
    const source = readLineChunks(file, false);
    let chunks = 0;
    for await (const _ of source.records) chunks++;
    assert.ok(chunks > 1, 'a file of several chunks');
    assert.equal(source.bytesRead(), Buffer.byteLength(text));
  });
});
