/**
 * Spelling correction of query words against a weighted vocabulary (Norvig-style edits). Pure:
 * the caller fills the vocabulary. Typing slips are mostly two letters swapped, a letter doubled
 * or dropped; a stray or wrong letter is rarer, so those edits count less.
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** How likely each kind of slip is, relative to a swap of neighbouring letters. */
const SLIP = { swapped: 1, doubled: 1, dropped: 0.8, stray: 0.3, wrong: 0.3 } as const;

/**
 * Every string one edit away, with how likely the typed word is a slip of it: the typed word
 * with a letter removed (the reader doubled or added it), two neighbours swapped, a letter
 * replaced, or a letter added (the reader dropped it).
 */
export function edits1(word: string): Map<string, number> {
  const out = new Map<string, number>();
  const put = (candidate: string, likelihood: number) => {
    if (candidate !== word && (out.get(candidate) ?? 0) < likelihood) out.set(candidate, likelihood);
  };
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) {
      const doubled = tail[0] === tail[1] || tail[0] === head.at(-1);
      put(head + tail.slice(1), doubled ? SLIP.doubled : SLIP.stray);
    }
    if (tail.length > 1) put(head + tail[1] + tail[0] + tail.slice(2), SLIP.swapped);
    for (const letter of LETTERS) {
      if (tail) put(head + letter + tail.slice(1), SLIP.wrong);
      put(head + letter + tail, SLIP.dropped);
    }
  }
  return out;
}

/**
 * The cheap second edit: a letter removed or two neighbours swapped (a second doubled, stray or
 * swapped letter). A second dropped or wrong letter would cost 26 lookups per position.
 */
function slips(word: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < word.length; i++) {
    const doubled = word[i] === word[i + 1] || word[i] === word[i - 1];
    out.set(word.slice(0, i) + word.slice(i + 1), doubled ? SLIP.doubled : SLIP.stray);
    if (i + 1 < word.length) {
      out.set(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), SLIP.swapped);
    }
  }
  out.delete(word);
  return out;
}

/** Words correction leaves alone: short or very long words, numbers, anything not plain letters. */
const correctable = (word: string) => word.length >= 3 && word.length <= 24 && /^[a-z]+$/.test(word);
/** Two edits are tried for words this long (shorter ones have too many neighbours two edits away). */
const TWO_EDITS = { from: 6, to: 14 };

export interface Suggestion {
  word: string;
  score: number;
}

export class Vocabulary {
  private readonly weights = new Map<string, number>();

  /** Adds weight to a word (weights of repeated additions add up). */
  add(word: string, weight: number): void {
    if (!correctable(word)) return;
    this.weights.set(word, (this.weights.get(word) ?? 0) + weight);
  }

  /** Raises a word to at least `weight` (for word lists, where a word is listed once). */
  atLeast(word: string, weight: number): void {
    if (!correctable(word)) return;
    if ((this.weights.get(word) ?? 0) < weight) this.weights.set(word, weight);
  }

  weight(word: string): number {
    return this.weights.get(word) ?? 0;
  }

  private ranked(candidates: Map<string, number>, limit: number): Suggestion[] {
    const found: Suggestion[] = [];
    for (const [word, likelihood] of candidates) {
      const weight = this.weight(word);
      if (weight > 0) found.push({ word, score: weight * likelihood });
    }
    return found.sort((a, b) => b.score - a.score || a.word.localeCompare(b.word)).slice(0, limit);
  }

  /**
   * Known words the typed word may be a slip of, likeliest first: one edit away, or two for
   * words of six letters or more when none is one away (tens of milliseconds: `twoEdits` false
   * skips it). Empty for a known or uncorrectable word.
   */
  suggest(word: string, limit = 3, twoEdits = true): Suggestion[] {
    if (!correctable(word) || this.weight(word) > 0) return [];
    const near = edits1(word);
    const one = this.ranked(near, limit);
    const long = word.length >= TWO_EDITS.from && word.length <= TWO_EDITS.to;
    if (one.length > 0 || !long || !twoEdits) return one;
    const far = new Map<string, number>();
    for (const [edit, first] of near) {
      for (const [candidate, second] of slips(edit)) {
        const likelihood = first * second;
        if ((far.get(candidate) ?? 0) < likelihood) far.set(candidate, likelihood);
      }
    }
    far.delete(word);
    return this.ranked(far, limit);
  }

  /** The word as it was probably meant: itself when known, else its likeliest known neighbour. */
  correct(word: string): string {
    return this.suggest(word, 1)[0]?.word ?? word;
  }

  /**
   * Much more common words one slip away from a known but rare one ("cray" → "crazy"), for a
   * retry when the words as typed found nothing; empty when the word is common enough.
   */
  likelier(word: string, factor = 4, limit = 2): string[] {
    if (!correctable(word) || word.length < 4) return [];
    const own = Math.max(1, this.weight(word));
    return this.ranked(edits1(word), limit)
      .filter((s) => s.score >= own * factor)
      .map((s) => s.word);
  }
}
