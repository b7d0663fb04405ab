import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seriesFromSubtitle } from '../../src/catalog/providers/googlebooks.js';
import { parseQuery, type TextQuery } from '../../src/domain/query.js';
import { edits1, Vocabulary } from '../../src/domain/spelling.js';
import { planProviderSearch } from '../../src/services/search/plans.js';

const text = (q: string) => parseQuery(q) as TextQuery;

function vocabulary(words: Record<string, number>): Vocabulary {
  const v = new Vocabulary();
  for (const [word, weight] of Object.entries(words)) v.add(word, weight);
  return v;
}

describe('spelling correction', () => {
  it('lists one-edit neighbours, a swap or doubled letter likelier than a wrong one', () => {
    const near = edits1('islnad');
    assert.equal(near.get('island'), 1, 'two neighbours swapped');
    assert.equal(edits1('minuutes').get('minutes'), 1, 'a doubled letter');
    assert.ok((near.get('islxad') ?? 0) < 1, 'a wrong letter is a rarer slip');
    assert.equal(near.has('islnad'), false);
  });

  it('corrects unknown words to the likeliest known one and leaves known words alone', () => {
    const v = vocabulary({ treasure: 5, island: 5, cradle: 3, candle: 3 });
    assert.equal(v.correct('treasue'), 'treasure');
    assert.equal(v.correct('islnad'), 'island');
    assert.equal(v.correct('island'), 'island');
    assert.equal(v.correct('xy'), 'xy', 'too short to correct');
    assert.equal(v.correct('1984'), '1984');
    assert.deepEqual(
      v.suggest('cadle').map((s) => s.word),
      ['candle', 'cradle'],
      'equally likely slips, both offered',
    );
  });

  it('reaches two edits for long words only, and not for very long input', () => {
    const v = vocabulary({ confederacy: 2, dunce: 2 });
    assert.equal(v.correct('cnofederayc'), 'confederacy');
    assert.equal(v.correct('dnuec'), 'dnuec', 'short words stop at one edit');
    assert.equal(v.correct('x'.repeat(400)), 'x'.repeat(400));
  });

  it('offers a much commoner neighbour for a known but rare word', () => {
    const v = vocabulary({ cray: 1, crazy: 30, love: 50 });
    assert.deepEqual(v.likelier('cray'), ['crazy']);
    assert.deepEqual(v.likelier('love'), []);
  });
});

describe('provider search plans', () => {
  it('asks the words as typed and as respelt, and the series by its name', () => {
    const v = vocabulary({ treasure: 5, island: 5 });
    const plan = planProviderSearch(text('treasue islnad'), v);
    assert.deepEqual(
      plan.strict.map((r) => r.text),
      ['treasue islnad', 'treasure island'],
    );
    const series = planProviderSearch(text('maze runner book 2'), v);
    assert.equal(series.strict[0]?.text, 'maze runner');
  });

  it('takes a series name the catalog knows off the query', () => {
    const plan = planProviderSearch(text('last sacrifice vampire academy'), null, [['vampire', 'academy']]);
    assert.deepEqual(
      plan.titles.map((q) => q.raw),
      ['last sacrifice'],
    );
    assert.ok(plan.strict.some((r) => r.text === 'last sacrifice'));
  });

  it('relaxes a query that finds nothing: runs of words from either end, least known word left out', () => {
    const v = vocabulary({ glass: 20, orchard: 20, hardback: 1 });
    const plan = planProviderSearch(text('the glass orchard hardback'), v);
    const asked = plan.relaxed.map((r) => r.text);
    assert.equal(asked[0], 'the glass orchard');
    assert.ok(asked.includes('glass orchard hardback'));
    assert.ok(asked.length <= 6);
  });
});

describe('series notes in Google subtitles', () => {
  it('reads the forms Google prints', () => {
    assert.equal(seriesFromSubtitle('The Maze Runner, Book 1'), 'The Maze Runner, #1');
    assert.equal(seriesFromSubtitle('Book Two of the Hunger Games Trilogy'), 'Hunger Games, #2');
    assert.equal(seriesFromSubtitle('Vampire Academy #2'), 'Vampire Academy, #2');
    // The volume words of other languages' editions.
    assert.equal(seriesFromSubtitle('Die Tribute von Panem, Band 2'), 'Die Tribute von Panem, #2');
    assert.equal(seriesFromSubtitle('Les Rois maudits, tome 3'), 'Les Rois maudits, #3');
    assert.equal(seriesFromSubtitle('De zeven zussen deel 4'), 'De zeven zussen, #4');
    assert.equal(seriesFromSubtitle('A Novel'), null);
    assert.equal(seriesFromSubtitle('Awakening to Your Life’s Purpose'), null);
    assert.equal(seriesFromSubtitle(null), null);
  });
});
