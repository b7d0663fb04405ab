import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inLanguage } from '../../src/http/i18n/context.js';
import { renderSearchPage } from '../../src/http/views/search-page.js';

const result = {
  title: 'Crazy Love',
  authors: ['Francis Chan'],
  coverUrl: null,
  year: '2008',
  isbn: null,
  href: '/search?q=cray+love&pick=1',
};

describe('search page: what the reader is told (issue 44)', () => {
  it('says when the results are for a respelt query, with a way to search as typed', () => {
    const page = renderSearchPage({ query: 'cray love', sfid: 7, results: [result], readAs: 'crazy love' });
    assert.ok(
      page.includes('Showing results for <a href="/search?q=crazy+love"><strong>crazy love</strong></a>'),
    );
    assert.ok(page.includes('Search instead for <a href="/search?q=cray+love&amp;exact=1">cray love</a>'));
    const german = inLanguage('de', () =>
      renderSearchPage({ query: 'cray love', sfid: 7, results: [result], readAs: 'crazy love' }),
    );
    assert.match(german, /Ergebnisse für <a href="\/search\?q=crazy\+love">/);
    assert.match(german, /Stattdessen suchen nach <a/);
  });

  it('says nothing of a reading when the words were searched as typed', () => {
    const page = renderSearchPage({ query: 'crazy love', sfid: 7, results: [result], readAs: null });
    assert.doesNotMatch(page, /Showing results for|data-read-as/);
  });

  it('an ISBN that finds nothing never suggests checking the spelling', () => {
    const isbn = renderSearchPage({ query: '9798000000011', sfid: 1, results: [], isbnQuery: true });
    assert.doesNotMatch(isbn, /spelling/i);
    assert.match(isbn, /No catalogue we use knows the ISBN 9798000000011 yet/);
    const words = renderSearchPage({ query: 'zzqx', sfid: 1, results: [] });
    assert.match(words, /Check the spelling/);
  });
});
