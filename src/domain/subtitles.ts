import { NUMBER_WORDS, VOLUME_WORDS } from './series.js';
import { RANKING_STOP_WORDS as STOP } from './stop-words.js';
import { foldText } from './text.js';

/**
 * Subtitle words that describe a book rather than name it: "A Novel", "A Memoir", "25th Anniversary
 * Edition", "Book Two". A subtitle of these words alone says nothing about which work it is.
 */
const DESCRIPTIVE = new Set([
  ...STOP,
  'novel',
  'novels',
  'novella',
  'memoir',
  'memoirs',
  'thriller',
  'romance',
  'mystery',
  'story',
  'stories',
  'tale',
  'tales',
  'poem',
  'poems',
  'play',
  'biography',
  'autobiography',
  'roman',
  'romanzo',
  'novela',
  'edition',
  'anniversary',
  'deluxe',
  'illustrated',
  'revised',
  'updated',
  'expanded',
  'annotated',
  'unabridged',
  'abridged',
  'classic',
  'classics',
  'special',
  'new',
  'book',
  'books',
  'volume',
  'vol',
  'part',
  'series',
  'trilogy',
  'saga',
  // "Book Two": volume numbers one to seven, as series notes spell them.
  ...NUMBER_WORDS.slice(0, 7),
  'first',
  'second',
  'third',
]);

const SERIES_SUBTITLE = new RegExp(
  `(?:^|\\s)(?:vol|no|number|${VOLUME_WORDS.join('|')})\\s+(?:\\d+|${NUMBER_WORDS.slice(0, 10).join('|')})(?:\\s|$)` +
    '|(?:^|\\s)\\d+(?:st|nd|rd|th)?\\s+(?:book|volume|part)(?:\\s|$)',
);

/**
 * The folded subtitle when it names something ("The Return of the King"), null when it only
 * describes the book ("A Novel", "Book 2", "Anniversary Edition") or is empty.
 */
export function namingSubtitle(subtitle: string | null | undefined): string | null {
  const folded = subtitle ? foldText(subtitle) : '';
  // A series note ("Maze Runner, Book Two", "#3") places the book in its series, as a duplicate
  // record of the same work may do: it does not make it another book.
  if (SERIES_SUBTITLE.test(folded) || /#\s*\d/.test(subtitle ?? '')) return null;
  const naming = folded
    .split(' ')
    .some((word) => word && !DESCRIPTIVE.has(word) && !/^\d+(?:st|nd|rd|th)?$/.test(word));
  return naming ? folded : null;
}
