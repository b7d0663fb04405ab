import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyRecord } from '../../src/catalog/types.js';
import { slugAgrees, slugSplits } from '../../src/services/resolve/provider-title.js';

const record = (title: string, authors: string[]) => ({ ...emptyRecord('openlibrary', title), authors });

describe('title-and-author slugs asked of providers', () => {
  it('tries the plausible title/author splits, the whole slug as a title last', () => {
    assert.deepEqual(slugSplits({ titleWords: 'The Hobbit J R R Tolkien Paperback' }), [
      { title: 'the hobbit j r r', author: 'tolkien' },
      { title: 'the hobbit j r', author: 'tolkien' },
      { title: 'the hobbit j', author: 'tolkien' },
      { title: 'the hobbit j r r tolkien' },
    ]);
    assert.deepEqual(slugSplits({ titleWords: 'the hobbit by j r r tolkien' })[0], {
      title: 'the hobbit',
      author: 'tolkien',
    });
    // The author apart (Hive, ThriftBooks) leaves one reading.
    assert.deepEqual(
      slugSplits({ titleWords: 'moonfleet j meade falkner', authorWords: 'j meade falkner' }),
      [{ title: 'moonfleet', author: 'meade falkner' }],
    );
  });

  it('agrees only when title and author match both ways', () => {
    const hobbit = record('The Hobbit', ['J.R.R. Tolkien']);
    assert.ok(slugAgrees({ titleWords: 'the hobbit j r r tolkien' }, hobbit));
    assert.ok(slugAgrees({ titleWords: 'the hobbit' }, hobbit));
    assert.ok(!slugAgrees({ titleWords: 'the hobbit companion' }, hobbit));
    assert.ok(!slugAgrees({ titleWords: 'hobbit' }, record('The Hobbit Companion', ['Jane Doe'])));
    assert.ok(!slugAgrees({ titleWords: 'the hobbit', authorWords: 'jane doe' }, hobbit));
    // Words beyond the title must name the author's surname, not only initials.
    assert.ok(!slugAgrees({ titleWords: 'the hobbit j r r' }, hobbit));
  });

  it("accepts the short words a store drops, a dangling 'A Novel', and the book's own series words", () => {
    assert.ok(
      slugAgrees(
        { titleWords: 'Three Men Boat Jerome' },
        record('Three Men in a Boat', ['Jerome K. Jerome']),
      ),
    );
    assert.equal(slugSplits({ titleWords: 'The Moonstone A Novel' }).at(-1)?.title, 'the moonstone');
    const chair = {
      ...record('The Silver Chair', ['C. S. Lewis']),
      identifiers: { series: 'The Chronicles of Narnia, #4' },
    };
    assert.ok(slugAgrees({ titleWords: 'the silver chair the chronicles of narnia book 4' }, chair));
    assert.ok(slugAgrees({ titleWords: 'Silver Chair Chronicles Narnia Book' }, chair));
    // Another volume's number contradicts the book.
    assert.ok(!slugAgrees({ titleWords: 'the silver chair the chronicles of narnia book 6' }, chair));
  });
});
