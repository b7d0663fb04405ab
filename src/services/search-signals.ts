import { foldText } from '../domain/text.js';
import {
  logFeedback,
  logMiss,
  logVote,
  type NewFeedback,
  type NewMiss,
  searchExists,
} from '../store/search/log.js';
import { ReaderWrites } from './reader-writes.js';
import type { Admission, Writer } from './write-limits.js';

/** Text compared for duplicates: case, accents and spacing aside, the same words are the same report. */
const sameText = (text: string | null) => (text === null ? null : foldText(text).replace(/\s+/g, ' ').trim());

/**
 * What readers tell search (DESIGN.md): clicks on results, misses and votes on a logged search. Each
 * is charged to its writer (`WriteLimits`): past the cap nothing is stored, and a repeat of the same
 * signal from the same writer in the window is stored once.
 */
export class SearchSignals extends ReaderWrites {
  feedback(entry: NewFeedback, writer: Writer): Promise<Admission> {
    const said = [sameText(entry.query), entry.clicked_position, entry.clicked_book_id, entry.source_sfid];
    return this.admitted('feedback', writer, said, (db) => logFeedback(db, entry));
  }

  miss(entry: NewMiss, writer: Writer): Promise<Admission> {
    const said = [sameText(entry.query), sameText(entry.details)];
    return this.admitted('miss', writer, said, (db) => logMiss(db, entry));
  }

  /** Records a vote; `not_found` when no search has this id (nothing is charged then). */
  async vote(
    sfid: number,
    feedback: 'positive' | 'negative',
    writer: Writer,
  ): Promise<Admission | { kind: 'not_found' }> {
    if (!(await searchExists(this.db, sfid))) return { kind: 'not_found' };
    return this.admitted('vote', writer, [sfid, feedback], (db) => logVote(db, sfid, feedback));
  }
}
