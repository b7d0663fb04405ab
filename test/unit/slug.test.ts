import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baseSlug, MAX_SLUG_LENGTH, slugCandidate } from '../../src/domain/slug.js';

describe('slugs', () => {
  it('reads as title and author', () => {
    assert.equal(baseSlug('The Hobbit', ['J.R.R. Tolkien']), 'the-hobbit-j-r-r-tolkien');
    assert.equal(
      baseSlug('The Hunger Games (The Hunger Games, #1)', ['Suzanne Collins']),
      'the-hunger-games-suzanne-collins',
    );
    assert.equal(baseSlug('Les Misérables', ['Victor Hugo']), 'les-miserables-victor-hugo');
  });
  it('never exceeds 80 characters and never ends in a dash', () => {
    const slug = baseSlug(`${'A '.repeat(60)}Very Long Title Indeed`, ['Somebody With A Long Name']);
    assert.ok(slug.length <= MAX_SLUG_LENGTH);
    assert.doesNotMatch(slug, /-$/);
    const alt = slugCandidate(slug, 1, '9780439023481');
    assert.ok(alt.length <= MAX_SLUG_LENGTH && alt.endsWith('-9780439023481'), alt);
  });
  it('falls back to "book" for titles without letters', () => {
    assert.equal(baseSlug('!!!', []), 'book');
    assert.equal(slugCandidate('book', 3, null), 'book-3');
  });
  it('keeps non-Latin letters', () => {
    assert.equal(baseSlug('宇宙の話をしよう', []), '宇宙の話をしよう');
  });
});
