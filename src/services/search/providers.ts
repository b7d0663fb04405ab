import type { Redis } from 'ioredis';
import { onBehalfOf, type Requester } from '../../catalog/requester.js';
import type { BookRecord, SearchQuery } from '../../catalog/types.js';
import { parseQuery, type TextQuery } from '../../domain/query.js';
import { type RankedGroup, rankCandidates } from '../../domain/ranking.js';
import { type AnswerCache, MemoryAnswerCache, RedisAnswerCache } from './cache.js';
import { apartVolumes, type Candidate, dedupe, remoteCandidate, uniqueSeriesNames } from './candidates.js';
import { planProviderSearch, requestKey } from './plans.js';
import { nameProviderSeries } from './provider-series.js';
import { type PlacedVolume, seriesAsked, seriesQuestion, volumeByOrder } from './series-order.js';
import type { SearchVocabulary } from './vocabulary.js';

/** A text search over remote providers (the provider chain's `search`). */
export interface TextSearchSource {
  /** False when no source behind it searches (the chain with PROVIDERS=local): nothing to plan or ask. */
  readonly searches?: boolean;
  search(query: SearchQuery, signal?: AbortSignal): Promise<BookRecord[]>;
  /** The same, telling whether every provider answered (only complete answers are cached). */
  searchAnswers?(
    query: SearchQuery,
    signal?: AbortSignal,
  ): Promise<{ records: BookRecord[]; complete: boolean; limited?: boolean }>;
}

/**
 * Whether an answer is the one any search of the same text would give now: false when a provider
 * did not answer in time or at all, or the time budget cut the questions short. Only complete
 * answers are cached.
 */
export interface Completeness {
  complete: boolean;
  /** Some provider question went unasked for a limit (budget, quota, circuit): see `incomplete`. */
  limited?: boolean;
}

export const PROVIDER_CACHE_TTL_MS = 10 * 60 * 1000;

/** Provider answers cached in this process, and in Redis too when the install has one. */
export function searchAnswerCache(redis: Redis | null): AnswerCache {
  const memory = new MemoryAnswerCache(PROVIDER_CACHE_TTL_MS);
  return redis ? new RedisAnswerCache(redis, memory, PROVIDER_CACHE_TTL_MS) : memory;
}

/** Provider answers this relevant end the search; below it the relaxed questions are asked too. */
const STRICT_ENOUGH = 0.8;
/** How much better another reading must explain its best result than the words as typed. */
const READING_MARGIN = 0.02;

/**
 * The providers' part of a text search: the questions planned for it (plans.ts) asked within the
 * search's time budget, their answers cached (cache.ts) and ranked with the local candidates.
 */
export class ProviderSearch {
  constructor(
    private readonly remote: TextSearchSource,
    private readonly cache: AnswerCache,
    private readonly vocabulary: SearchVocabulary | null,
    private readonly remoteTimeoutMs: number,
  ) {}

  /**
   * Asks the providers within the time budget: the strict questions at once, then (time left and
   * nothing good yet) the relaxed ones. Every answer is ranked with the local candidates by the
   * same ranking, under the reading (as typed or as corrected) that explains the best result.
   */
  async withProviders(
    query: TextQuery,
    local: Candidate[],
    localGroups: RankedGroup<Candidate>[],
    started: number,
    progress: Completeness,
    requester: Requester,
    how: { asTyped: boolean; reading: { readAs: string | null } },
  ): Promise<RankedGroup<Candidate>[]> {
    // The budget covers the whole search, the local part included.
    const deadline = started + this.remoteTimeoutMs;
    if (deadline - Date.now() < 50) {
      progress.complete = false;
      return localGroups;
    }
    const vocabulary = this.vocabulary && !how.asTyped ? await this.vocabulary.vocabulary() : null;
    const plan = planProviderSearch(query, vocabulary, uniqueSeriesNames(local));
    const found: Candidate[] = [];
    // `told`: a reading the page names ("Showing results for …"): respelt or with words dropped.
    const readings: Array<{ reading: TextQuery; weight: number; told: boolean }> = [
      ...plan.readings.map((reading, i) => ({ reading, weight: 1, told: i > 0 })),
      // The title without the series name explains the query but not from what the book says.
      ...plan.titles.map((reading) => ({ reading, weight: 0.88, told: false })),
    ];
    // Volumes placed by their order among their author's works (`seriesVolume`), by work.
    const placed = new Map<string, PlacedVolume>();
    // The reading that explains the best result wins; another must explain it clearly better.
    const rank = () => {
      const all = apartVolumes(dedupe([...local, ...found])).map((c) => {
        const volume = placed.get(c.titleKey);
        return volume && !c.series ? { ...c, series: volume.series, seriesInferred: true } : c;
      });
      const ranked = readings.map(({ reading, weight, told }) => ({
        weight,
        told: told ? reading.raw : null,
        groups: rankCandidates(reading, all),
      }));
      const top = (r: (typeof ranked)[number]) => (r.groups[0]?.relevance ?? 0) * r.weight;
      const best = ranked.reduce((a, b) => (top(b) > top(a) + READING_MARGIN ? b : a));
      how.reading.readAs = best.told;
      return best.weight === 1
        ? best.groups
        : best.groups.map((group) => ({ ...group, relevance: group.relevance * best.weight }));
    };
    found.push(...(await this.ask(plan.strict, deadline, progress, requester)));
    let groups = found.length > 0 ? rank() : localGroups;
    if ((groups[0]?.relevance ?? 0) < STRICT_ENOUGH && plan.relaxed.length > 0 && !how.asTyped) {
      if (deadline - Date.now() <= 50) {
        progress.complete = false;
        return groups;
      }
      const answers = await Promise.all(
        plan.relaxed.map((request) => this.ask([request], deadline, progress, requester)),
      );
      plan.relaxed.forEach((request, i) => {
        const more = answers[i] ?? [];
        const volume = query.seriesNumber === null ? '' : ` ${query.seriesNumber}`;
        const reading = parseQuery(`${request.text}${volume}`);
        if (more.length === 0 || reading.kind !== 'text') return;
        found.push(...more);
        // A reading of fewer words than typed ranks below any full reading: never confident.
        const kept = reading.terms.length / Math.max(1, query.terms.length);
        readings.push({ reading, weight: Math.min(0.88, 0.7 + 0.2 * kept), told: true });
      });
      if (found.length > 0) groups = rank();
    }
    const volume = await this.seriesVolume(query, [...local, ...found], deadline, progress, requester);
    if (volume) {
      placed.set(volume.candidate.titleKey, volume);
      found.push(volume.candidate);
      groups = rank();
    }
    return groups;
  }

  /**
   * A volume query whose series the answers place but not the volume asked ("cormoran strike 2"
   * with volumes 1 and 3 found): the series' author is asked for every work (one more question,
   * on such queries only), and the volume is read from their order of first publication
   * (`volumeByOrder`). Shown with an inferred series note: ranked, never redirected to.
   */
  private async seriesVolume(
    query: TextQuery,
    candidates: readonly Candidate[],
    deadline: number,
    progress: Completeness,
    requester: Requester,
  ): Promise<PlacedVolume | null> {
    const asked = seriesAsked(query, candidates);
    if (!asked) return null;
    if (deadline - Date.now() <= 50) {
      progress.complete = false;
      return null;
    }
    const question = seriesQuestion(asked);
    const answer = await this.ask([question], deadline, progress, requester);
    return volumeByOrder(asked, candidates, answer, answer.length < question.limit);
  }

  /** Asks the providers several questions at once (cached answers are not asked again). */
  private async ask(
    requests: readonly SearchQuery[],
    deadline: number,
    progress: Completeness,
    requester: Requester,
  ): Promise<Candidate[]> {
    const remote = this.remote;
    if (!remote) return [];
    const signal = onBehalfOf(requester, AbortSignal.timeout(Math.max(1, deadline - Date.now())));
    const answers = Promise.all(
      requests.map(async (request, at): Promise<Candidate[]> => {
        const key = requestKey(request);
        const cached = await this.cache.get(key);
        if (cached) return providerCandidates(request, cached, at);
        const answer: { records: BookRecord[]; complete: boolean; limited?: boolean } = remote.searchAnswers
          ? await remote.searchAnswers(request, signal).catch(() => ({ records: [], complete: false }))
          : await remote.search(request, signal).then(
              (records) => ({ records, complete: records.length > 0 }),
              () => ({ records: [], complete: false }),
            );
        if (answer.limited) progress.limited = true;
        if (answer.complete && !signal.aborted) await this.cache.set(key, answer.records);
        else progress.complete = false;
        return providerCandidates(request, answer.records, at);
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Candidate[][]>((resolve) => {
      timer = setTimeout(
        () => {
          progress.complete = false;
          resolve([]);
        },
        Math.max(1, deadline - Date.now()) + 50,
      ).unref();
    });
    const found = (await Promise.race([answers, timeout]).finally(() => clearTimeout(timer))).flat();
    this.vocabulary?.learn(found.map((c) => c.record));
    return found;
  }
}

/**
 * One provider answer's candidates, in order; volumes placed only by their provider's own series
 * (Google's `seriesInfo`) get a series note named by `nameProviderSeries`.
 */
function providerCandidates(request: SearchQuery, records: readonly BookRecord[], at: number): Candidate[] {
  const notes = nameProviderSeries(request, records);
  return records
    .filter((record) => record.title)
    .map((record, i) => {
      const c = remoteCandidate(record, `${at}.${i}`);
      const note = notes.get(record);
      return note ? { ...c, series: note.series, seriesInferred: note.inferred } : c;
    });
}
