import type { SearchQuery } from '../../catalog/types.js';
import { parseQuery, type TextQuery } from '../../domain/query.js';
import type { Vocabulary } from '../../domain/spelling.js';
import { PLANNING_STOP_WORDS as STOP } from '../../domain/stop-words.js';
import { foldText } from '../../domain/text.js';

/** What the providers are asked for one text query, and the readings its answers are ranked by. */
export interface ProviderPlan {
  /** The query as typed, then as respelt (the likeliest correction first); all are ranked. */
  readings: TextQuery[];
  /** The words left when a known series name is taken off the query ("last sacrifice" of "last sacrifice vampire academy"). */
  titles: TextQuery[];
  /** Asked at once: each reading's words (a series by its name, without the volume number). */
  strict: SearchQuery[];
  /** Asked when the strict questions found nothing good: likelier spellings, then fewer words. */
  relaxed: SearchQuery[];
}

const MAX_READINGS = 3;
const MAX_RELAXED = 6;
const MAX_CORRECTED_WORDS = 12;
/** Words looked for two edits away, per query (each costs tens of milliseconds). */
const MAX_TWO_EDIT_WORDS = 2;

/** Each word of the raw text replaced by `spell(word)` when it changes; everything else kept. */
function respell(raw: string, spell: (word: string) => string | null): string {
  return raw.replace(/[\p{L}\p{M}]+/gu, (word) => {
    const folded = foldText(word);
    const fixed = spell(folded);
    return fixed && fixed !== folded ? fixed : word;
  });
}

function asText(text: string): TextQuery | null {
  const query = parseQuery(text);
  return query.kind === 'text' ? query : null;
}

/**
 * Spellings of the query, likeliest first: every unknown word as its best suggestion, then one
 * word at a time as its second or third ("cray love" → "pray love", "crazy love", "gray love").
 */
function respellings(query: TextQuery, vocabulary: Vocabulary): TextQuery[] {
  const suggestions = new Map<string, string[]>();
  // A long query is corrected in its first words only: each word costs a few thousand lookups.
  let deep = 0;
  for (const term of query.terms.slice(0, MAX_CORRECTED_WORDS)) {
    const found = vocabulary.suggest(term, 3, deep < MAX_TWO_EDIT_WORDS).map((s) => s.word);
    if (found.length === 0 && vocabulary.weight(term) === 0) deep++;
    if (found.length > 0) suggestions.set(term, found);
  }
  if (suggestions.size === 0) return [];
  const best = (word: string) => suggestions.get(word)?.[0] ?? null;
  const variants = [respell(query.raw, best)];
  for (const [word, alternatives] of suggestions) {
    for (const alternative of alternatives.slice(1)) {
      variants.push(respell(query.raw, (w) => (w === word ? alternative : best(w))));
    }
  }
  return variants.map(asText).filter((q): q is TextQuery => q !== null);
}

/** The provider question for a reading: its title and author when it names them, else its words. */
function request(query: TextQuery, limit: number): SearchQuery {
  const explicit = query.splits.find((split) => split.author);
  if (explicit && /\sby\s/i.test(query.raw)) {
    return { text: '', title: explicit.title, author: explicit.author ?? undefined, limit };
  }
  return { text: query.terms.join(' '), limit };
}

const significant = (words: readonly string[]) => words.some((word) => !STOP.has(word) && word.length > 1);

/**
 * Plans the provider questions for a text query: the words as typed and respelt against the
 * vocabulary; a series asked by its name (its volumes are told apart by the answers' series
 * data). On a miss: rare words replaced by much commoner neighbours, then by turns the longest
 * runs of words from either end (a title followed by its series name, an author before the
 * title) and the query with one word left out (the least known word first).
 */
export function planProviderSearch(
  query: TextQuery,
  vocabulary: Vocabulary | null,
  seriesNames: readonly (readonly string[])[] = [],
): ProviderPlan {
  const readings = [query];
  const seenReadings = new Set([query.terms.join(' ')]);
  for (const reading of vocabulary ? respellings(query, vocabulary) : []) {
    const key = reading.terms.join(' ');
    if (readings.length < MAX_READINGS + 1 && !seenReadings.has(key)) {
      seenReadings.add(key);
      readings.push(reading);
    }
  }
  const limit = query.seriesNumber !== null ? 20 : 10;
  const titles = withoutSeriesName(readings[1] ?? query, seriesNames);
  const strict = [...readings, ...titles].map((reading) => request(reading, limit));
  const relaxed: SearchQuery[] = [];
  const add = (words: string[]) => {
    if (words.length > 1 ? significant(words) : (words[0]?.length ?? 0) >= 4 && significant(words)) {
      relaxed.push({ text: words.join(' '), limit });
    }
  };
  const main = readings[1] ?? query;
  const terms = main.terms.filter((term) => term !== 'by');
  if (vocabulary) {
    const likelier = respell(main.raw, (word) => vocabulary.likelier(word)[0] ?? null);
    const reading = asText(likelier);
    if (reading && !seenReadings.has(reading.terms.join(' '))) {
      readings.push(reading);
      add(reading.terms);
    }
  }
  // Short words and stop words are never the odd one out.
  const known = (word: string) =>
    STOP.has(word) || word.length < 3 ? Number.POSITIVE_INFINITY : (vocabulary?.weight(word) ?? 0);
  const drops =
    terms.length >= 3
      ? terms
          .map((word, i) => ({ word, i }))
          .sort((x, y) => known(x.word) - known(y.word))
          .map(({ i }) => terms.filter((_, j) => j !== i))
      : [];
  for (let length = terms.length - 1, round = 0; length >= 1; length--, round++) {
    add(terms.slice(0, length));
    add(terms.slice(terms.length - length));
    const drop = drops[round];
    if (drop) add(drop);
  }
  const seen = new Set(strict.map(requestKey));
  const unique = relaxed.filter((r) => !seen.has(requestKey(r)) && seen.add(requestKey(r)));
  return { readings, titles, strict, relaxed: unique.slice(0, MAX_RELAXED) };
}

/**
 * The query without a series name it starts or ends with, when the series is one the catalog
 * knows ("dead in the family sookie stackhouse"): the rest is likely the title of a volume.
 */
function withoutSeriesName(query: TextQuery, seriesNames: readonly (readonly string[])[]): TextQuery[] {
  const terms = query.terms.filter((term) => term !== 'by');
  const found: TextQuery[] = [];
  const seen = new Set<string>();
  for (const raw of seriesNames) {
    const name = raw[0] === 'the' ? raw.slice(1) : raw;
    if (name.length === 0 || name.length >= terms.length || !significant(name)) continue;
    const atEnd = name.every((word, i) => terms[terms.length - name.length + i] === word);
    const atStart = name.every((word, i) => terms[i] === word);
    const rest = atEnd
      ? terms.slice(0, terms.length - name.length)
      : atStart
        ? terms.slice(name.length)
        : null;
    if (!rest || !significant(rest)) continue;
    const text = rest.at(-1) === 'the' ? rest.slice(0, -1).join(' ') : rest.join(' ');
    const reading = seen.has(text) ? null : asText(text);
    if (reading) {
      seen.add(text);
      found.push(reading);
    }
  }
  return found.slice(0, 2);
}

/** The cache key of a provider question: its normalised words and fields. */
export function requestKey(request: SearchQuery): string {
  return [
    foldText(request.text),
    foldText(request.title ?? ''),
    foldText(request.author ?? ''),
    request.limit,
  ].join('|');
}
