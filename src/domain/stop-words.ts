/**
 * Small words, one list with a subset for each use (they differ on purpose):
 * - `INDEX_STOP_WORDS`: English words a title need not hold as typed ("Angels & Demons" holds no
 *   "and"), so retrieval leaves them out of the words every match must hold;
 * - `RANKING_STOP_WORDS`: those and the articles and conjunctions of the catalog's other languages
 *   ("der", "la", "et"), which weigh a quarter of a word in relevance: a German or French title's
 *   small words must not decide it either, but retrieval keeps them (the index holds them);
 * - `PLANNING_STOP_WORDS`: the English ones and the joining words of a query ("by", "with", "or"),
 *   never a significant word of a question to the providers ("by" joins title and author there);
 * - `SERIES_NAME_STOP_WORDS`: the words a query may leave out of a series name it names.
 */
const ENGLISH = ['the', 'a', 'an', 'of', 'and', 'in', 'to', 'on', 'for'] as const;

export const INDEX_STOP_WORDS: ReadonlySet<string> = new Set(ENGLISH);

export const RANKING_STOP_WORDS: ReadonlySet<string> = new Set([
  ...ENGLISH,
  'de',
  'la',
  'le',
  'el',
  'der',
  'die',
  'das',
  'y',
  'et',
  'und',
]);

export const PLANNING_STOP_WORDS: ReadonlySet<string> = new Set([...ENGLISH, 'by', 'with', 'at', 'or', 'is']);

export const SERIES_NAME_STOP_WORDS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'of', 'and']);
