import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexTokens } from '../../src/domain/query.js';
import { authorSurname, coreTitle, foldText, matchKey, matchKeyWithAuthors } from '../../src/domain/text.js';

describe('text folding', () => {
  it('folds diacritics, case and punctuation', () => {
    assert.equal(foldText('Les Misérables!'), 'les miserables');
    assert.equal(foldText("Harry Potter and the Sorcerer's Stone"), 'harry potter and the sorcerers stone');
    assert.equal(foldText('Straße & Ærø'), 'strasse and aero');
  });
  it('folds plain ASCII and other text by the same rules', () => {
    // Plain ASCII skips the Unicode steps; a tab, a ligature or full-width letters take them.
    assert.equal(foldText("Don't Panic: A-Z_of Things (2nd ed.)"), 'dont panic a z of things 2nd ed');
    assert.equal(foldText("Don't\tPanic: A-Z_of Things (2nd ed.)"), 'dont panic a z of things 2nd ed');
    assert.equal(foldText('ﬁnal Ｂｏｏｋ'), 'final book');
    assert.equal(foldText('Tom & Jerry’s'), 'tom and jerrys');
  });
  it('keeps every script searchable: marks stay on their letters, CJK runs whole, compatibility forms folded', () => {
    // NFKD left a kana's voiced mark loose and the word split at it: "消極性テ サ イン宣言".
    assert.equal(foldText('「消極性デザイン宣言」'), '消極性デザイン宣言');
    assert.equal(foldText('消極性テ\u3099サ\u3099イン宣言'), '消極性デザイン宣言');
    assert.equal(foldText('ﾃﾞｻﾞｲﾝ'), 'デザイン');
    assert.equal(foldText('한국어 소설'), '한국어 소설');
    assert.equal(foldText('हिन्दी उपन्यास'), 'हिन्दी उपन्यास');
    assert.equal(foldText('ภาษาไทย'), 'ภาษาไทย');
    // Vowel points are left out as accents are.
    assert.equal(foldText('عَرَبِيّ'), 'عربي');
    assert.equal(foldText('I ❤️ Books'), 'i books');
    assert.deepEqual(indexTokens('消極性デザイン宣言 2'), ['消極性デザイン宣言', '2']);
    assert.deepEqual(indexTokens('한국어'), ['한국어']);
  });
  it('drops series notes, subtitles and a leading article from titles', () => {
    assert.equal(coreTitle('The Hunger Games (The Hunger Games, #1)'), 'hunger games');
    assert.equal(coreTitle('Sapiens: A Brief History of Humankind'), 'sapiens');
  });
  it('finds surnames in both name orders', () => {
    assert.equal(authorSurname('J.R.R. Tolkien'), 'tolkien');
    assert.equal(authorSurname('Austen, Jane'), 'austen');
  });
  it('gives editions of one work the same key', () => {
    assert.equal(
      matchKey('Pride and Prejudice', ['Jane Austen']),
      matchKey('Pride & Prejudice', ['Austen, Jane']),
    );
    assert.equal(matchKey('', ['x']), null);
  });
  it('re-keys a title for other authors exactly as matchKey keys it', () => {
    const titles = [
      'Pride and Prejudice',
      'The Hunger Games (The Hunger Games, #1)',
      'Les Misérables: Tome I',
      'a | b || c',
      'Ærø — østen',
      '   ',
      '|',
      'Straße 1984; a novel',
    ];
    const authorLists = [
      [],
      ['Jane Austen'],
      ['Tolkien, J. R. R.', 'Other'],
      ['Dostoyevsky (Fyodor)'],
      ['|'],
    ];
    for (const title of titles) {
      for (const before of authorLists) {
        for (const after of authorLists) {
          assert.equal(
            matchKeyWithAuthors(matchKey(title, before), after),
            matchKey(title, after),
            `${title} / ${before.join(';')} -> ${after.join(';')}`,
          );
        }
      }
    }
  });
});
