import type { Isbn } from '../domain/isbn.js';
import type { MissCache } from '../store/provider-misses.js';
import { OutboundError } from './http-client.js';
import { mergeRecords } from './merge.js';
import { onBehalfOf, requesterOf } from './requester.js';
import type { BookRecord, MetadataProvider, SearchQuery } from './types.js';

export type { MissCache } from '../store/provider-misses.js';
export { coverQuality, hasSeriesNote, mergeRecords } from './merge.js';

export interface ProviderChainOptions {
  /** Budget of each provider per question (config.providerTimeoutMs). */
  timeoutMs?: number;
  missCache?: MissCache;
  /** How long an unknown ISBN stays unknown before providers are asked again (default 1 hour). */
  missTtlMs?: number;
  /** Providers asked even for a remembered miss: the local catalog is cheap and may have learnt it. */
  alwaysAsk?: readonly string[];
  /** Told about every provider that failed or timed out (for logs); failures never fail the chain. */
  onError?: (provider: string, error: unknown) => void;
}

/** `refused`: the provider was not asked (its budget, quota or circuit): its answer is missing, not empty. */
type Answer<T> = { ok: true; value: T } | { ok: false; refused: boolean };

/** A lookup's record, and whether some provider could not be asked (the answer may be incomplete). */
export interface IsbnAnswer {
  record: BookRecord | null;
  limited: boolean;
}

/** A search's records; `complete` when every provider answered, `limited` when one could not be asked. */
export interface SearchAnswers {
  records: BookRecord[];
  complete: boolean;
  limited: boolean;
}

const limitedBy = (answers: readonly Answer<unknown>[]) => answers.some((a) => !a.ok && a.refused);

const DEFAULT_TIMEOUT_MS = 2500;
const DEFAULT_MISS_TTL_MS = 60 * 60 * 1000;

/**
 * Asks every provider at once, each within its own time budget, and merges the answers in the
 * order of trust the providers were given in. A provider that fails or is slow only loses its say.
 */
export class ProviderChain {
  private readonly timeoutMs: number;
  private readonly missTtlMs: number;

  constructor(
    readonly providers: readonly MetadataProvider[],
    private readonly options: ProviderChainOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.missTtlMs = options.missTtlMs ?? DEFAULT_MISS_TTL_MS;
  }

  /** The merged record for an ISBN, or null when no source knows it. */
  async lookupIsbn(isbn: Isbn, signal?: AbortSignal): Promise<BookRecord | null> {
    return (await this.lookupIsbnAnswer(isbn, signal)).record;
  }

  /** `lookupIsbn`, telling whether a provider could not be asked (then null is no "unknown"). */
  async lookupIsbnAnswer(isbn: Isbn, signal?: AbortSignal): Promise<IsbnAnswer> {
    const remembered = (await this.options.missCache?.isMiss(isbn.isbn13)) ?? false;
    const alwaysAsk = this.options.alwaysAsk ?? ['local'];
    const asked = remembered ? this.providers.filter((p) => alwaysAsk.includes(p.name)) : this.providers;
    const answers = await Promise.all(asked.map((p) => this.ask(p, (s) => p.lookupIsbn(isbn, s), signal)));
    const found = answers.flatMap((answer) => (answer.ok && answer.value ? [answer.value] : []));
    const limited = limitedBy(answers);
    if (found.length > 0) {
      return { record: { ...mergeRecords(found), isbn13: isbn.isbn13, isbn10: isbn.isbn10 }, limited };
    }
    // Only a clean "unknown" from every source is remembered: an outage must not hide a real book.
    if (!remembered && answers.every((answer) => answer.ok) && !signal?.aborted) {
      await this.options.missCache?.remember(isbn.isbn13, this.missTtlMs);
    }
    return { record: null, limited };
  }

  /** Whether any provider answers text searches (with none, `search` always answers nothing). */
  get searches(): boolean {
    return this.providers.some((p) => typeof p.search === 'function');
  }

  /** Every record the searching providers find, in order of trust, one per ISBN (merged). */
  async search(query: SearchQuery, signal?: AbortSignal): Promise<BookRecord[]> {
    return (await this.searchAnswers(query, signal)).records;
  }

  /** `search`, telling whether every provider answered (only a complete answer may be cached). */
  async searchAnswers(query: SearchQuery, signal?: AbortSignal): Promise<SearchAnswers> {
    const searchers = this.providers.filter((p) => typeof p.search === 'function');
    const answers = await Promise.all(
      searchers.map((p) => this.ask(p, (s) => p.search?.(query, s) ?? Promise.resolve([]), signal)),
    );
    return {
      records: dedupeByIsbn(answers.flatMap((answer) => (answer.ok ? answer.value : []))),
      complete: answers.every((answer) => answer.ok),
      limited: limitedBy(answers),
    };
  }

  /** Runs one provider call under its own deadline; never throws. */
  private async ask<T>(
    provider: MetadataProvider,
    call: (signal: AbortSignal) => Promise<T>,
    outer: AbortSignal | undefined,
  ): Promise<Answer<T>> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    // The provider's signal is the call's context: it is made for whom the outer one was.
    const signal = onBehalfOf(requesterOf(outer), outer ? AbortSignal.any([outer, deadline]) : deadline);
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    // A provider that ignores its signal still cannot hold the chain past the deadline.
    const expired = new Promise<Answer<T>>((resolve) => {
      timer = setTimeout(() => {
        settled = true;
        this.options.onError?.(
          provider.name,
          new Error(`${provider.name}: no answer in ${this.timeoutMs} ms`),
        );
        resolve({ ok: false, refused: false });
      }, this.timeoutMs + 50);
    });
    const answered = call(signal).then(
      (value): Answer<T> => ({ ok: true, value }),
      (error: unknown): Answer<T> => {
        if (!settled) this.options.onError?.(provider.name, error);
        return { ok: false, refused: error instanceof OutboundError && error.refused };
      },
    );
    try {
      return await Promise.race([answered, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Groups records by ISBN-13 (first seen keeps its place) and merges each group; no-ISBN records stay. */
export function dedupeByIsbn(records: readonly BookRecord[]): BookRecord[] {
  const groups = new Map<string, BookRecord[]>();
  const order: (string | BookRecord)[] = [];
  for (const record of records) {
    if (!record.isbn13) {
      order.push(record);
      continue;
    }
    const group = groups.get(record.isbn13);
    if (group) group.push(record);
    else {
      groups.set(record.isbn13, [record]);
      order.push(record.isbn13);
    }
  }
  return order.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const group = groups.get(entry) ?? [];
    const editions = Math.max(0, ...group.map((record) => record.editionCount ?? 0));
    return editions > 0 ? { ...mergeRecords(group), editionCount: editions } : mergeRecords(group);
  });
}
