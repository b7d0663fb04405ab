import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { boundedMemo } from '../domain/bounded-memo.js';

/**
 * A response body kept with its compressed forms, so a cached page or asset is compressed once and
 * then sent as stored bytes: compression is paid per cache entry, never per request.
 */
export class CompressedBody {
  private br: Buffer | undefined;
  private gzip: Buffer | undefined;

  constructor(
    readonly raw: Buffer,
    /** Brotli quality: fast for pages rendered often, maximal for files read once at boot. */
    private readonly brotliQuality = 5,
  ) {}

  encoded(encoding: Encoding): Buffer {
    if (encoding === 'br') {
      this.br ??= brotliCompressSync(this.raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: this.brotliQuality,
          [constants.BROTLI_PARAM_SIZE_HINT]: this.raw.length,
        },
      });
      return this.br;
    }
    this.gzip ??= gzipSync(this.raw, { level: 6 });
    return this.gzip;
  }
}

export type Encoding = 'br' | 'gzip';

/** Below this size the headers outweigh what compression saves. */
export const MIN_BYTES = 1024;

/** The encoding to answer with: brotli, else gzip, when the client accepts it (`;q=0` refuses). */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  return encodingFor(Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding);
}

/** Browsers send one of a few Accept-Encoding values; each is parsed once. */
const encodingFor = boundedMemo((header): Encoding | null => {
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((text) => text.trim());
    const refused = params.some((param) => /^q=0(\.0*)?$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
});

/** Sends the body compressed when the client accepts it; `Vary: Accept-Encoding` either way. */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: CompressedBody) {
  reply.header('vary', varyWith(reply.getHeader('vary')));
  const encoding = body.raw.length >= MIN_BYTES ? chooseEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(body.raw);
  return reply.header('content-encoding', encoding).send(body.encoded(encoding));
}

/** The Vary header with Accept-Encoding added once; a route sets the same few values, each merged once. */
const varyWithEncoding = boundedMemo((text): string =>
  text
    .toLowerCase()
    .split(',')
    .some((part) => part.trim() === 'accept-encoding')
    ? text
    : `${text}, Accept-Encoding`,
);

function varyWith(current: unknown): string {
  return typeof current === 'string' && current ? varyWithEncoding(current) : 'Accept-Encoding';
}
