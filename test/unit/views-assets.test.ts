import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  assetUrl,
  findStaticAsset,
  findWebDir,
  loadStaticAssets,
  STATIC_IMMUTABLE_CACHE,
  STATIC_SHORT_CACHE,
  staticHeaders,
} from '../../src/http/views/assets.js';

describe('static assets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-web-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fingerprints top-level files of known types only', () => {
    writeFileSync(join(dir, 'a.css'), 'body{}');
    writeFileSync(join(dir, 'b.js'), '1');
    writeFileSync(join(dir, 'notes.md'), '#');
    writeFileSync(join(dir, '.hidden.js'), '1');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'c.js'), '1');
    const assets = loadStaticAssets(dir);
    assert.deepEqual([...assets.keys()], ['a.css', 'b.js']);
    const css = assets.get('a.css');
    assert.equal(css?.contentType, 'text/css; charset=utf-8');
    assert.equal(css?.hash, createHash('sha256').update('body{}').digest('hex').slice(0, 12));
  });

  it('serves the real web/ files under a hashed /static/ URL', () => {
    const styles = findStaticAsset('styles.css');
    assert.ok(styles);
    assert.deepEqual(styles.body, readFileSync(join(findWebDir(), 'styles.css')));
    assert.equal(assetUrl('styles.css'), `/static/styles.css?v=${styles.hash}`);
    for (const name of ['cover.js', 'book.js', 'favicon.svg']) assert.ok(findStaticAsset(name), name);
  });

  it('knows nothing outside web/', () => {
    assert.equal(findStaticAsset('../package.json'), undefined);
    assert.throws(() => assetUrl('missing.css'), /unknown static asset/);
  });

  it('caches for a year only when the request names the current hash', () => {
    const cover = findStaticAsset('cover.js');
    assert.ok(cover);
    assert.equal(staticHeaders(cover, cover.hash)['cache-control'], STATIC_IMMUTABLE_CACHE);
    assert.equal(staticHeaders(cover, 'stale')['cache-control'], STATIC_SHORT_CACHE);
    assert.equal(staticHeaders(cover, undefined)['content-type'], 'text/javascript; charset=utf-8');
  });
});
