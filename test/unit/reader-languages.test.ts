import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAGE_LANGUAGES } from '../../src/config.js';
import {
  acceptedLanguage,
  negotiateLanguage,
  READER_LANGUAGES,
  readerLanguageOf,
} from '../../src/domain/reader-languages.js';
import { englishMessages } from '../../src/http/i18n/catalogue.js';
import { inLanguage, t, tHtml } from '../../src/http/i18n/context.js';
import { sameOriginPath } from '../../src/http/i18n/switcher.js';
import { html } from '../../src/http/views/html.js';

describe('reader language negotiation', () => {
  it('reads Accept-Language by q-value, ties in header order, q=0 refused', () => {
    assert.equal(acceptedLanguage('fr;q=0.4, de;q=0.9, en;q=0.8'), 'de');
    assert.equal(acceptedLanguage('nl, fr'), 'nl');
    assert.equal(acceptedLanguage('ja;q=0, es;q=0.1'), 'es');
    assert.equal(acceptedLanguage('ru, zh-CN;q=0.9, it;q=0.2'), 'it');
    assert.equal(acceptedLanguage('fr;q=abc, de;q=0.5'), 'de');
  });

  it('falls back from a region to its language', () => {
    assert.equal(acceptedLanguage('de-AT'), 'de');
    assert.equal(acceptedLanguage('pt-BR,pt;q=0.9,en;q=0.8'), 'pt');
    assert.equal(acceptedLanguage('en-GB'), 'en');
    assert.equal(readerLanguageOf('ja_JP'), 'ja');
  });

  it('an unknown language, a wildcard or no header is the operator default', () => {
    assert.equal(acceptedLanguage('ru, zh'), null);
    assert.equal(acceptedLanguage('*'), null);
    assert.equal(negotiateLanguage({ acceptLanguage: 'sv-SE', fallback: 'fr' }), 'fr');
    assert.equal(negotiateLanguage({ acceptLanguage: undefined, fallback: 'ja' }), 'ja');
    assert.equal(negotiateLanguage({ acceptLanguage: '', fallback: 'en' }), 'en');
  });

  it('?lang= beats the cookie, which beats Accept-Language; unknown values are skipped', () => {
    const all = { query: 'es', cookie: 'it', acceptLanguage: 'de', fallback: 'en' } as const;
    assert.equal(negotiateLanguage(all), 'es');
    assert.equal(negotiateLanguage({ ...all, query: null }), 'it');
    assert.equal(negotiateLanguage({ ...all, query: 'xx', cookie: 'yy' }), 'de');
    assert.equal(negotiateLanguage({ ...all, query: 'PT-br' }), 'pt');
  });

  it('config.ts knows the same languages (it imports nothing)', () => {
    assert.deepEqual([...PAGE_LANGUAGES], [...READER_LANGUAGES]);
  });
});

describe('the language switcher', () => {
  it('returns only to a path on this site, without its lang=', () => {
    assert.equal(sameOriginPath('/book/dune?lang=fr&country=GB'), '/book/dune?country=GB');
    assert.equal(sameOriginPath('/search?q=dune'), '/search?q=dune');
    for (const hostile of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      '',
      undefined,
    ]) {
      assert.equal(sameOriginPath(hostile), '/', String(hostile));
    }
  });
});

describe('messages', () => {
  it('formats ICU plurals and numbers per language, parsed once and reused', () => {
    assert.equal(
      inLanguage('en', () => t('common.books', { count: 1 })),
      '1 book',
    );
    assert.equal(
      inLanguage('de', () => t('common.books', { count: 2 })),
      '2 Bücher',
    );
    assert.equal(
      inLanguage('de', () => t('common.number', { value: 1234 })),
      '1.234',
    );
    assert.equal(
      inLanguage('fr', () => t('search.count', { count: 0 })),
      '0 résultat',
    );
    assert.equal(
      inLanguage('ja', () => t('common.books', { count: 3 })),
      '3冊',
    );
    assert.equal(
      inLanguage('de', () => t('error.writeLimited', { what: 'book', unit: 'minute', count: 3 })),
      'Von dieser Adresse kamen vorerst so viele neue Buchseiten wie erlaubt. Bitte versuche es in 3 Minuten noch einmal.',
    );
    assert.match(
      inLanguage('en', () => t('error.writeLimited', { what: 'miss', unit: 'second', count: 1 })),
      /reports of books you could not find as it may for now\. Please try again in 1 second\.$/,
    );
  });

  it('escapes text and values in rich messages, keeps the markup it is given', () => {
    const out = inLanguage('en', () => tHtml('book.permanent', { link: html`<a href="/x">${'<b>'}</a>` }));
    assert.equal(out.value, 'Permanent link: <a href="/x">&lt;b&gt;</a>');
    assert.equal(
      inLanguage('en', () => tHtml('search.insteadFor', { query: '<script>' })).value,
      'Search instead for &lt;script&gt;',
    );
  });

  it('the English catalogue is the source of every key', () => {
    assert.ok(Object.keys(englishMessages()).length > 100);
  });
});
