import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  brandStylesheet,
  brandStylesheetPath,
  normaliseHexColour,
  parseAccentVersion,
  sniffLogoType,
} from '../../src/domain/brand.js';
import { boundaryOf, parseMultipart } from '../../src/http/multipart.js';
import { brandOf } from '../../src/services/brand.js';

describe('brand rules', () => {
  it('reads hex colours in their usual spellings', () => {
    assert.equal(normaliseHexColour('#ABC'), '#aabbcc');
    assert.equal(normaliseHexColour(' 2646a6 '), '#2646a6');
    assert.equal(normaliseHexColour('red'), null);
    assert.equal(normaliseHexColour('#12345'), null);
  });

  it('knows a logo by its first bytes, never SVG', () => {
    assert.equal(
      sniffLogoType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])),
      'image/png',
    );
    assert.equal(sniffLogoType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
    assert.equal(sniffLogoType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
    assert.equal(sniffLogoType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
    assert.equal(sniffLogoType(Buffer.from('GIF89a')), null);
  });

  it('names the accent stylesheet by its colours, and keeps each theme to its own media', () => {
    const light = { accentLight: '#8a1c1c', accentDark: null };
    assert.equal(brandStylesheetPath(light), '/brand/theme-8a1c1c-.css');
    assert.deepEqual(parseAccentVersion('8a1c1c-'), light);
    assert.equal(parseAccentVersion('-'), null);
    assert.equal(parseAccentVersion('zz'), null);
    assert.equal(brandStylesheetPath({ accentLight: null, accentDark: null }), null);
    const css = brandStylesheet(light);
    assert.match(css, /@media not \(prefers-color-scheme: dark\) \{ :root \{ --accent: #8a1c1c/);
    assert.doesNotMatch(css, /@media \(prefers-color-scheme: dark\)/);
  });

  it('fills a brand from stored settings, defaults for anything missing or malformed', () => {
    const brand = brandOf(
      { siteName: '  ', accentLight: 'nope', logo: { hash: 'x', contentType: 'image/png' } },
      'a@b.c',
    );
    assert.equal(brand.siteName, 'Booklink');
    assert.equal(brand.accentLight, null);
    assert.equal(brand.logo, null);
    assert.equal(brand.contactEmail, 'a@b.c');
    assert.equal(brandOf({ contactEmail: 'ops@x.example' }, 'a@b.c').contactEmail, 'ops@x.example');
  });
});

describe('multipart forms', () => {
  it('reads text fields and a file, leaving empty ones out', () => {
    const boundary = '----x1';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\ntoken\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="empty"\r\n\r\n\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.from([0, 1, 2, 13, 10, 3]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    assert.equal(boundaryOf(`multipart/form-data; boundary=${boundary}`), boundary);
    const fields = parseMultipart(body, boundary);
    assert.ok(fields);
    assert.equal(fields._csrf, 'token');
    assert.equal('empty' in fields, false);
    const logo = fields.logo;
    assert.ok(typeof logo === 'object');
    assert.equal(logo.filename, 'a.png');
    assert.deepEqual([...logo.bytes], [0, 1, 2, 13, 10, 3]);
  });

  it('refuses a body that is not multipart', () => {
    assert.equal(parseMultipart(Buffer.from('hello'), 'b'), null);
    assert.equal(boundaryOf('multipart/form-data'), null);
  });
});
