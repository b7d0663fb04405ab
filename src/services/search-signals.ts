import { foldText } from '../domain/text.js';
import type { Db } from '../store/schema.js';
import {
  logFeedback,
  logMiss,
  logVote,
  type NewFeedback,
  type NewMiss,
  searchExists,
} from '../store/search/log.js';
import { type Admission, type WriteLimits, type Writer, writeFingerprint } from './write-limits.js';

/** Text compared for duplicates: case, accents and spacing aside, the same words are the same report. */
const sameText = (text: string | null) => (text === null ? null : foldText(text).replace(/\s+/g, ' ').trim());

/**
 * What readers tell search (DESIGN.md): clicks on results, misses and votes on a logged search. Each
 * is charged to its writer (`WriteLimits`): past the cap nothing is stored, and a repeat of the same
 * signal from the same writer in the window is stored once.
 */
export class SearchSignals {
  constructor(
    private readonly db: Db,
    private readonly writes: WriteLimits,
  ) {}

  async feedback(entry: NewFeedback, writer: Writer): Promise<Admission> {
    const fingerprint = writeFingerprint(
      sameText(entry.query),
      entry.clicked_position,
      entry.clicked_book_id,
      entry.source_sfid,
    );
    const admission = await this.writes.admit('feedback', writer, fingerprint);
    if (admission.kind === 'admitted') await logFeedback(this.db, entry);
    return admission;
  }

  async miss(entry: NewMiss, writer: Writer): Promise<Admission> {
    const fingerprint = writeFingerprint(sameText(entry.query), sameText(entry.details));
    const admission = await this.writes.admit('miss', writer, fingerprint);
    if (admission.kind === 'admitted') await logMiss(this.db, entry);
    return admission;
  }

  /** Records a vote; `not_found` when no search has this id (nothing is charged then). */
  async vote(
    sfid: number,
    feedback: 'positive' | 'negative',
    writer: Writer,
  ): Promise<Admission | { kind: 'not_found' }> {
    if (!(await searchExists(this.db, sfid))) return { kind: 'not_found' };
    const admission = await this.writes.admit('vote', writer, writeFingerprint(sfid, feedback));
    if (admission.kind === 'admitted') await logVote(this.db, sfid, feedback);
    return admission;
  }
}
