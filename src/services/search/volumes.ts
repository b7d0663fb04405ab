import type { TextQuery } from '../../domain/query.js';
import { isConfident, type RankedGroup } from '../../domain/ranking.js';
import { SERIES_NAME_STOP_WORDS } from '../../domain/stop-words.js';
import { titleParts } from '../../domain/title-parts.js';
import type { Candidate } from './candidates.js';

/**
 * Sure enough to go straight to the top result (the ranking's rule), and when the query asks for
 * a volume ("green mile part 3"), the top result is that volume by its series note or title.
 */
export function confident(query: TextQuery, groups: readonly RankedGroup<Candidate>[]): boolean {
  if (!isConfident(groups)) return false;
  const wanted = query.seriesNumber;
  const top = groups[0]?.best;
  if (top?.seriesInferred && !top.pinned) return false;
  if (wanted === null || !top || top.pinned) return true;
  const parts = titleParts(top);
  if (parts.core.includes(String(wanted))) return true;
  const series = parts.series;
  if (!series || series.number !== wanted || series.range) return false;
  // The query names that series ("foundation 2" is not "Foundation: Prequel, #2").
  const named = series.name.filter((word) => !SERIES_NAME_STOP_WORDS.has(word));
  return named.every((word) => query.terms.includes(word));
}

/** Whether a candidate is the volume a query asks for, by its title or its series note. */
function carriesVolume(query: TextQuery, candidate: Candidate): boolean {
  const parts = titleParts(candidate);
  const wanted = query.seriesNumber;
  return wanted !== null && (parts.core.includes(String(wanted)) || parts.series?.number === wanted);
}

/**
 * When the query asks for a volume ("green mile part 3") and the first work does not carry that
 * number, a work that does and matches the words at least as well goes first.
 */
export function volumeFirst(query: TextQuery, groups: RankedGroup<Candidate>[]): RankedGroup<Candidate>[] {
  const top = groups[0];
  if (query.seriesNumber === null || !top || top.best.pinned || carriesVolume(query, top.best)) return groups;
  const index = groups.findIndex((g) => g.relevance >= top.relevance && carriesVolume(query, g.best));
  if (index <= 0) return groups;
  const volume = groups[index];
  return volume ? [volume, ...groups.filter((_, i) => i !== index)] : groups;
}
