import type { Dispatcher } from 'undici';

/** Reading provider answers without trusting their size. */

export function isTimeout(signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true && signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
  );
}

export async function readLimited(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The most of a refused answer's body read to tell a quota answer from another 429/403. */
const QUOTA_BODY_BYTES = 64 * 1024;

/** A refused answer's JSON body (a quota error explains itself there), or null; never throws. */
export async function readJsonQuietly(body: Dispatcher.ResponseData['body']): Promise<unknown> {
  try {
    const bytes = await readLimited(body, QUOTA_BODY_BYTES);
    return bytes ? (JSON.parse(bytes.toString('utf8')) as unknown) : null;
  } catch {
    return null;
  }
}
