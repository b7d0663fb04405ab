import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { it } from 'node:test';
import { LIST_ID_LENGTH, LIST_ID_PATTERN, newListId } from '../../src/domain/list-ids.js';

it('draws list ids of 12 lower-case letters and digits that the id pattern accepts', () => {
  const ids = new Set(Array.from({ length: 1000 }, () => newListId(randomInt)));
  assert.equal(ids.size, 1000);
  for (const id of ids) {
    assert.equal(id.length, LIST_ID_LENGTH);
    assert.match(id, new RegExp(LIST_ID_PATTERN));
    assert.doesNotMatch(id, /-/, 'no dash: it separates the id from the words in /list/{id}-{words}');
  }
});

it('draws again when every character is a digit, so a new id never looks like an old numeric one', () => {
  // A source that gives digits for the whole first draw, then letters.
  let calls = 0;
  const id = newListId((n) => (calls++ < LIST_ID_LENGTH ? 7 : n - 1));
  assert.equal(id, 'z'.repeat(LIST_ID_LENGTH));
});
