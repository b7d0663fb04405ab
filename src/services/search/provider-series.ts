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

/**
 * Names the series of the volumes one provider answer places in a series of its own (Google's
 * `seriesInfo` gives an id and a number, never a name). Volumes of one series id share a name: a
 * member's own series note names it ("Abhorsen, Book 3" in a subtitle); otherwise the words the
 * provider was asked for, which it matched to that series, confirmed when a member's title is
 * those words (the series named after its first volume) and inferred when none is. Volumes that
 * carry their own series note keep it; the answer is not changed.
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
    for (const record of volumes) {
      if (record.identifiers.series || !record.providerSeries) continue;
      notes.set(record, {
        series: `${name}, #${record.providerSeries.number}`,
        inferred: named === undefined && !titled,
      });
    }
  }
  return notes;
}
