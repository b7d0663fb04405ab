import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance } from '../../src/domain/edit-distance.js';
import { parseQuery, type TextQuery } from '../../src/domain/query.js';
import {
  candidateScore,
  editionPenalty,
  isConfident,
  queryScores,
  type RankInput,
  rankCandidates,
  workGroupKey,
} from '../../src/domain/ranking.js';

type C = RankInput & { id: string };

function c(id: string, title: string, authors: string[], extra: Partial<RankInput> = {}): C {
  return {
    id,
    title,
    authors,
    format: 'paperback',
    language: 'eng',
    groupKey: workGroupKey(title, authors) ?? id,
    popularity: 1000,
    clicks: 0,
    pinned: false,
    saved: false,
    hasCover: true,
    ...extra,
  };
}

const q = (text: string) => parseQuery(text) as TextQuery;
const top = (text: string, candidates: C[]) => rankCandidates(q(text), candidates)[0]?.best.id;

const HG = [
  c('hg1', 'The Hunger Games (The Hunger Games, #1)', ['Suzanne Collins'], { popularity: 4_000_000 }),
  c('hg2', 'Catching Fire (The Hunger Games, #2)', ['Suzanne Collins'], { popularity: 2_000_000 }),
  c('hg3', 'Mockingjay (The Hunger Games, #3)', ['Suzanne Collins'], { popularity: 1_800_000 }),
];

describe('editDistance', () => {
  it('counts substitutions, insertions and transpositions as one edit', () => {
    assert.equal(editDistance('tolkein', 'tolkien'), 1);
    assert.equal(editDistance('hobit', 'hobbit'), 1);
    assert.equal(editDistance('potter', 'pottre'), 1);
    assert.equal(editDistance('abc', 'xyzuvw'), 3);
  });

  it('gives the full optimal-string-alignment distance, capped at max + 1, for any pair of words', () => {
    // The textbook definition, a whole matrix at once, to check the working rows against.
    const reference = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          const row = d[i] as number[];
          const above = d[i - 1] as number[];
          row[j] = Math.min(
            (above[j] as number) + 1,
            (row[j - 1] as number) + 1,
            (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
        }
      }
      return (d[a.length] as number[])[b.length] as number;
    };
    let state = 7;
    const next = (n: number) => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state % n;
    };
    // Small alphabets make near words common; a long pair grows the working rows mid-run.
    const word = (length: number) => Array.from({ length }, () => 'abcé'[next(4)]).join('');
    const pairs: Array<[string, string]> = [
      ['', ''],
      ['', 'ab'],
      ['ab', 'ba'],
      ['a'.repeat(80), `${'a'.repeat(79)}b`],
    ];
    for (let k = 0; k < 3000; k++) {
      const a = word(next(10));
      pairs.push([a, next(3) === 0 ? a.slice(0, next(a.length + 1)) + word(next(3)) : word(next(10))]);
    }
    for (const [a, b] of pairs) {
      for (const max of [0, 1, 2, 3]) {
        assert.equal(editDistance(a, b, max), Math.min(reference(a, b), max + 1), `${a} ${b} ${max}`);
      }
    }
  });
});

describe('rankCandidates', () => {
  it('prefers the mainstream trade edition and groups editions of one work', () => {
    const editions = [
      c('lp', 'The Hunger Games', ['Suzanne Collins'], { format: 'large-print', popularity: 9_000_000 }),
      c('audio', 'The Hunger Games (Audiobook)', ['Suzanne Collins'], { format: 'audiobook' }),
      c('es', 'The Hunger Games', ['Suzanne Collins'], { language: 'spa', popularity: 10 }),
      c('pb', 'The Hunger Games', ['Suzanne Collins'], { popularity: 5_000_000 }),
    ];
    const groups = rankCandidates(q('the hunger games'), editions);
    assert.equal(groups.length, 1);
    assert.equal(groups[0]?.best.id, 'pb');
    assert.equal(groups[0]?.editions.length, 4);
    assert.ok(editionPenalty({ title: 'Dune (Large Print Edition)', format: null }) > 0);
  });

  it('finds the volume a series number asks for', () => {
    assert.equal(top('hunger games 2', HG), 'hg2');
    assert.equal(top('hunger games #3', HG), 'hg3');
    assert.equal(top('hunger games', HG), 'hg1');
  });

  it('tolerates typos and reads author+title in any order', () => {
    const books = [
      ...HG,
      c('hobbit', 'The Hobbit', ['J.R.R. Tolkien']),
      c('lotr', 'The Fellowship of the Ring', ['J.R.R. Tolkien']),
    ];
    for (const text of [
      'the hobit',
      'hobbit tolkein',
      'Tolkien: The Hobbit',
      'the hobbit by tolkien',
      'tolkien hobbit',
    ]) {
      assert.equal(top(text, books), 'hobbit', text);
    }
    assert.equal(top('mockingjy', books), 'hg3');
  });

  it('ranks a famous book that starts with the query over companions whose core title equals it', () => {
    const books = [
      c('film', 'Wren Hollow: Film Wizardry', ['B. Lake'], { popularity: 45_000 }),
      c('popup', 'Wren Hollow: A Pop-Up Book', ['K. Lucas'], { popularity: 22_000 }),
      c('box', 'Wren Hollow Boxset', ['I. Falkirk'], { popularity: 190_000, series: 'Wren Hollow, #1-7' }),
      c('other', 'Wren Hollow: Secrets of the Hall', ['P. Ashdown'], { popularity: 30_000 }),
      c('wh2', 'Wren Hollow and the Salt Road', ['I. Falkirk'], {
        popularity: 1_700_000,
        series: 'Wren Hollow, #2',
      }),
      c('wh1', 'Wren Hollow and the Glass Key', ['I. Falkirk'], {
        popularity: 4_600_000,
        series: 'Wren Hollow, #1',
      }),
    ];
    const groups = rankCandidates(q('wren hollow'), books);
    assert.equal(groups[0]?.best.id, 'wh1');
    assert.equal(isConfident(groups), false, 'a series name alone is ambiguous');
    assert.equal(top('wren hollow 2', books), 'wh2');
    assert.equal(top('wren hollow boxset', books), 'box');
    assert.ok(isConfident(rankCandidates(q('wren hollow and the glass key'), books)));
    // Without popularity the first volume of the named series still leads its marked companions
    // (an unmarked "Wren Hollow: Secrets of the Hall" can only be told apart by popularity).
    const unrated = books.filter((b) => b.id !== 'other').map((b) => ({ ...b, popularity: 0 }));
    assert.equal(top('wren hollow', unrated), 'wh1');
  });

  it('reads the series from metadata when the title has no note', () => {
    const books = [
      c('g1', 'Brass Sparrow', ['T. Ridley'], { series: 'Gearhaven, #1' }),
      c('g2', 'The Copper Tide', ['T. Ridley'], { series: 'Gearhaven, #2' }),
      c('omni', 'Gearhaven Omnibus', ['T. Ridley'], { series: 'Gearhaven, #1-3' }),
    ];
    assert.equal(top('gearhaven', books), 'g1');
    assert.equal(top('gearhaven book 2', books), 'g2');
    assert.equal(isConfident(rankCandidates(q('gearhaven 9'), books)), false);
  });

  it('lets a pin win and makes it confident', () => {
    const books = [...HG, c('pinned', 'Hunger', ['Knut Hamsun'], { pinned: true, popularity: 1 })];
    const groups = rankCandidates(q('hunger games'), books);
    assert.equal(groups[0]?.best.id, 'pinned');
    assert.ok(isConfident(groups));
  });

  it('is confident for an exact title far ahead, not for an author alone or a weak match', () => {
    assert.ok(isConfident(rankCandidates(q('Mockingjay'), HG)));
    assert.equal(isConfident(rankCandidates(q('suzanne collins'), HG)), false);
    assert.equal(isConfident(rankCandidates(q('the hunger of the gods'), HG)), false);
  });
});

describe('scores read once per title and authors', () => {
  // Editions of one work sharing a title, told apart by format, series note, original title, authors.
  const editions = [
    c('pb', 'Pride and Prejudice', ['Jane Austen']),
    c('lp', 'Pride and Prejudice', ['Jane Austen'], { format: 'large-print' }),
    c('au', 'Pride and Prejudice', ['Jane Austen'], { format: 'audiobook' }),
    c('two', 'Pride and Prejudice', ['Jane Austen', 'Tony Tanner']),
    c('noted', 'Pride and Prejudice', ['Jane Austen'], { series: 'Penguin Classics, #3' }),
    c('orig', 'Pride and Prejudice', ['Jane Austen'], { originalTitle: 'Elizabeth Bennet' }),
    c('zombies', 'Pride and Prejudice and Zombies', ['Seth Grahame-Smith', 'Jane Austen']),
    c('dup', 'Pride and Prejudice', ['Jane Austen'], { format: 'ebook' }),
  ];

  for (const text of [
    'pride and prejudice',
    'pride prejudice austen',
    'pride and prejudice tanner',
    '"and zombies"',
    'elizabeth bennet',
    'penguin 3',
  ]) {
    it(`gives every edition candidateScore's value: ${text}`, () => {
      const query = q(text);
      const scoreOf = queryScores(query);
      for (const edition of [...editions, ...editions]) {
        assert.equal(scoreOf(edition), candidateScore(query, edition), edition.id);
      }
    });
  }
});
