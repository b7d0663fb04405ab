import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FRAME_BOX, fitBox, oembedTarget } from '../../src/domain/oembed.js';

const BASE = 'https://books.example';
const target = (url: string, base = BASE) => oembedTarget(new URL(url), base);

describe('oEmbed targets and sizes', () => {
  it('knows book pages, short links and list pages of our host, in either scheme', () => {
    assert.deepEqual(target(`${BASE}/book/the-hobbit`), { kind: 'book', slug: 'the-hobbit' });
    assert.deepEqual(target('http://books.example/b/the-hobbit/'), { kind: 'book', slug: 'the-hobbit' });
    assert.deepEqual(target(`${BASE}/list/a7Kq9x-summer-reading?src=x#top`), {
      kind: 'list',
      ref: 'a7Kq9x-summer-reading',
    });
    assert.deepEqual(target(`${BASE}/book/caf%C3%A9`), { kind: 'book', slug: 'café' });
  });

  it('knows nothing else: other hosts or ports, other paths, bad escapes, a base path not matched', () => {
    for (const url of [
      'https://elsewhere.example/book/the-hobbit',
      'https://books.example:8443/book/the-hobbit',
      `${BASE}/books/the-hobbit`,
      `${BASE}/book/`,
      `${BASE}/book/a/b`,
      `${BASE}/embed/the-hobbit`,
      `${BASE}/book/%E0%A4%A`,
    ])
      assert.equal(target(url), null, url);
    assert.deepEqual(target('https://example.org/links/b/x', 'https://example.org/links'), {
      kind: 'book',
      slug: 'x',
    });
    assert.equal(target('https://example.org/b/x', 'https://example.org/links'), null);
  });

  it('shrinks a box to the limits keeping its proportions, never grows it', () => {
    assert.deepEqual(fitBox(FRAME_BOX, {}), FRAME_BOX);
    assert.deepEqual(fitBox(FRAME_BOX, { maxwidth: 240 }), { width: 240, height: 180 });
    assert.deepEqual(fitBox(FRAME_BOX, { maxwidth: 240, maxheight: 90 }), { width: 120, height: 90 });
    assert.deepEqual(fitBox(FRAME_BOX, { maxwidth: 5000, maxheight: 5000 }), FRAME_BOX);
    assert.deepEqual(fitBox(FRAME_BOX, { maxwidth: 1 }), { width: 1, height: 1 });
  });
});
