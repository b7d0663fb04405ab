import type { BookRecord, SearchQuery } from '../../catalog/types.js';
import { seriesPosition } from '../../domain/series.js';
import { foldText } from '../../domain/text.js';

/** A series note for a provider volume that carries only its provider's series id and number. */
export interface ProviderSeriesNote {
  /** "Abhorsen, #1", in the catalog's form. */
  series: string;
  /**
   * The name is the words the provider was asked, and no volume of that series confirms it (by
   * its own series note or a title that is those words): good enough to rank, never to redirect.
   */
  inferred: boolean;
}

const withoutArticle = (words: string) => words.replace(/^(?:the|a|an) /, '');

/** Whether the volume's own title, subtitle or authors hold every word asked: found by them, not by its series. */
function foundByOwnWords(record: BookRecord, asked: readonly string[]): boolean {
  const own = new Set(
    foldText([record.title, record.subtitle ?? '', ...record.authors].join(' '))
      .split(/\s+/)
      .filter(Boolean),
  );
  return asked.every((word) => own.has(word));
}

/**
 * Names the series of the volumes one provider answer places in a series of its own (Google's
 * `seriesInfo` gives an id and a number, never a name). Volumes of one series id share a name: a
 * member's own series note names it ("Abhorsen, Book 3" in a subtitle); otherwise the words the
 * provider was asked for, which it matched to that series: confirmed when the answer holds
 * several volumes of it and one is titled with those words (a series named after a volume),
 * inferred otherwise. An inferred name places only the volumes those words did not find by their
 * own title, subtitle or authors (found by their series). Volumes that carry their own series note
 * keep it; the answer is not changed.
 */
export function nameProviderSeries(
  request: SearchQuery,
  records: readonly BookRecord[],
): Map<BookRecord, ProviderSeriesNote> {
  const members = new Map<string, BookRecord[]>();
  for (const record of records) {
    if (!record.providerSeries) continue;
    const list = members.get(record.providerSeries.id) ?? [];
    list.push(record);
    members.set(record.providerSeries.id, list);
  }
  const asked = foldText(request.title ?? request.text).trim();
  const notes = new Map<BookRecord, ProviderSeriesNote>();
  for (const volumes of members.values()) {
    const named = volumes
      .map((record) => seriesPosition(record.identifiers.series)?.name)
      .find((name): name is string => Boolean(name));
    const titled = volumes.some(
      (record) => asked !== '' && withoutArticle(foldText(record.title)) === withoutArticle(asked),
    );
    const name = named ?? (asked || null);
    if (!name) continue;
    // Several volumes of one series answering the words, one of them titled so: the series' name.
    const confirmed = named !== undefined || (titled && volumes.length >= 2);
    for (const record of volumes) {
      if (record.identifiers.series || !record.providerSeries) continue;
      // A volume its own words found ("the quiet ledger") is placed only in a series named for sure.
      if (!confirmed && foundByOwnWords(record, asked.split(/\s+/).filter(Boolean))) continue;
      notes.set(record, { series: `${name}, #${record.providerSeries.number}`, inferred: !confirmed });
    }
  }
  return notes;
}
