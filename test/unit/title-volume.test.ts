import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { googleVolumeToRecord } from '../../src/catalog/providers/googlebooks.js';
import { parseQuery, type TextQuery } from '../../src/domain/query.js';
import { rankCandidates } from '../../src/domain/ranking.js';
import { titleVolume } from '../../src/domain/series.js';
import { remoteCandidate } from '../../src/services/search/candidates.js';
import { volumeFirst } from '../../src/services/search/volumes.js';

/**
 * Volumes whose title prints the volume, as Google Books sends them: "Batman La Légende - Neal
 * Adams - Tome 3" (a recorded real answer: id 4fX_DwAAQBAJ, Urban Comics, with `seriesInfo`
 * bookDisplayNumber "3"; here without it, as most volumes come), "Naruto, Vol. 1" (VIZ Media),
 * "進撃の巨人（３）" (Kodansha, fullwidth digits and brackets).
 */
function volumes(titles: string[], authors: string[]) {
  return titles.map((title, i) => {
    const record = googleVolumeToRecord({
      kind: 'books#volume',
      id: `v${i}`,
      volumeInfo: {
        title,
        authors,
        publishedDate: `2020-10-0${i + 1}`,
        industryIdentifiers: [{ type: 'ISBN_13', identifier: `979102684580${i}` }],
        printType: 'BOOK',
        language: 'fr',
      },
    });
    assert.ok(record);
    return remoteCandidate(record, `0.${i}`);
  });
}

const text = (q: string) => {
  const parsed = parseQuery(q);
  assert.equal(parsed.kind, 'text');
  return parsed as TextQuery;
};

/** The first result's title for a query over these volumes, as search orders them. */
function top(q: string, titles: string[], authors = ['Denis O’Neil', 'Neal Adams']): string | undefined {
  const query = text(q);
  return volumeFirst(query, rankCandidates(query, volumes(titles, authors)))[0]?.best.title;
}

describe('a volume number printed in a title', () => {
  it('reads the forms publishers give the providers, in the UI’s languages', () => {
    const read = (title: string) => {
      const volume = titleVolume(title);
      return volume ? [volume.series, volume.number] : null;
    };
    assert.deepEqual(read('Batman La Légende - Neal Adams - Tome 3'), ['Batman La Légende - Neal Adams', 3]);
    assert.deepEqual(read('Astérix - Tome 1 - Astérix le Gaulois'), ['Astérix', 1]);
    assert.deepEqual(read('Naruto, Vol. 1'), ['Naruto', 1]);
    assert.deepEqual(read('Harry Potter, Band 1: Harry Potter und der Stein der Weisen'), [
      'Harry Potter',
      1,
    ]);
    assert.deepEqual(read('Dune, Livre 1'), ['Dune', 1]);
    assert.deepEqual(read('The Silkworm (Cormoran Strike Book 2)'), ['Cormoran Strike', 2]);
    assert.deepEqual(read('進撃の巨人（３）'), ['進撃の巨人', 3]);
    assert.deepEqual(read('ワンピース 第3巻'), ['ワンピース', 3]);
    // A number that belongs to the title is no volume.
    for (const title of [
      'The Jungle Book 2',
      'Catch-22',
      'The No. 1 Ladies’ Detective Agency',
      'Das Parfum (1985)',
    ]) {
      assert.equal(titleVolume(title), null, title);
    }
  });

  it('puts the volume asked first among volumes that share their title but for the number', () => {
    const tomes = [1, 2, 3].map((n) => `Batman La Légende - Neal Adams - Tome ${n}`);
    assert.equal(top('batman la légende tome 3', tomes), 'Batman La Légende - Neal Adams - Tome 3');
    assert.equal(top('batman la legende neal adams t. 2', tomes), 'Batman La Légende - Neal Adams - Tome 2');
    const kodansha = ['進撃の巨人（１）', '進撃の巨人（２）', '進撃の巨人（３）'];
    assert.equal(top('進撃の巨人 第3巻', kodansha, ['諫山創']), '進撃の巨人（３）');
    const shueisha = ['ワンピース 第1巻', 'ワンピース 第2巻', 'ワンピース 第3巻'];
    assert.equal(top('ワンピース 2', shueisha, ['尾田栄一郎']), 'ワンピース 第2巻');
  });

  it('keeps each volume a work of its own', () => {
    const tomes = [3, 1, 2].map((n) => `Batman La Légende - Neal Adams - Tome ${n}`);
    const groups = rankCandidates(text('batman la légende'), volumes(tomes, ['Neal Adams']));
    assert.deepEqual(
      groups.map((g) => g.editions.length),
      [1, 1, 1],
    );
  });
});
