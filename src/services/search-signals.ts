import type { Db } from '../store/schema.js';
import {
  logFeedback,
  logMiss,
  logVote,
  type NewFeedback,
  type NewMiss,
  searchExists,
} from '../store/search.js';

/** What readers tell search (DESIGN.md): clicks on results, misses and votes on a logged search. */
export class SearchSignals {
  constructor(private readonly db: Db) {}

  feedback(entry: NewFeedback): Promise<void> {
    return logFeedback(this.db, entry);
  }

  miss(entry: NewMiss): Promise<void> {
    return logMiss(this.db, entry);
  }

  /** Records a vote; false when no search has this id. */
  async vote(sfid: number, feedback: 'positive' | 'negative'): Promise<boolean> {
    if (!(await searchExists(this.db, sfid))) return false;
    await logVote(this.db, sfid, feedback);
    return true;
  }
}
