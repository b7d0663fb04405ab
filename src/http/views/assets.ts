import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompressedBody } from '../compressed.js';

/**
 * The files of `web/`, read once and fingerprinted. Pages link `/static/<name>?v=<hash>`, so the route
 * layer can answer with a year-long immutable cache: a new deploy changes the hash, hence the URL.
 */
export interface StaticAsset {
  name: string;
  body: Buffer;
  /** The body with its brotli and gzip forms, made on first request and kept. */
  compressed: CompressedBody;
  contentType: string;
  /** First 12 hex digits of the SHA-256 of the body. */
  hash: string;
}

export const STATIC_PREFIX = '/static/';
/** For a request whose `v` matches the asset's hash. Without it, serve with `STATIC_SHORT_CACHE`. */
export const STATIC_IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const STATIC_SHORT_CACHE = 'public, max-age=300';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** Walks up from this module to the project root, so the lookup works from `src/` and from `dist/`. */
export function findWebDir(start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'web');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no web/ directory above ${start}`);
    dir = parent;
  }
}

/** Only top-level files with a known type are served: no subdirectories, so no path traversal. */
export function loadStaticAssets(dir: string = findWebDir()): ReadonlyMap<string, StaticAsset> {
  const assets = new Map<string, StaticAsset>();
  for (const name of readdirSync(dir).sort()) {
    const contentType = CONTENT_TYPES[extname(name)];
    const path = join(dir, name);
    if (!contentType || name.startsWith('.') || !statSync(path).isFile()) continue;
    const body = readFileSync(path);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    assets.set(name, { name, body, compressed: new CompressedBody(body, 11), contentType, hash });
  }
  return assets;
}

let loaded: ReadonlyMap<string, StaticAsset> | undefined;

/** The assets of this process, loaded on first use (call it at boot to fail fast). */
export function staticAssets(): ReadonlyMap<string, StaticAsset> {
  loaded ??= loadStaticAssets();
  return loaded;
}

/** The asset for a `/static/<name>` request, or undefined (answer 404). */
export function findStaticAsset(name: string): StaticAsset | undefined {
  return staticAssets().get(name);
}

/** `/static/<name>?v=<hash>`; a missing asset is a programming error, so it throws. */
export function assetUrl(name: string): string {
  const asset = findStaticAsset(name);
  if (!asset) throw new Error(`unknown static asset: ${name}`);
  return `${STATIC_PREFIX}${name}?v=${asset.hash}`;
}

/**
 * Response headers for an asset. Only a request naming the current hash gets the immutable cache:
 * an old or missing `v` may be a stale page, which must not pin today's bytes under yesterday's URL.
 */
export function staticHeaders(
  asset: StaticAsset,
  requestedVersion: string | undefined,
): Record<string, string> {
  return {
    'content-type': asset.contentType,
    'cache-control': requestedVersion === asset.hash ? STATIC_IMMUTABLE_CACHE : STATIC_SHORT_CACHE,
    etag: `"${asset.hash}"`,
    'x-content-type-options': 'nosniff',
  };
}
