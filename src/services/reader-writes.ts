import type { Db } from '../store/schema.js';
import {
  type Admission,
  type WriteKind,
  type WriteLimits,
  type Writer,
  writeFingerprint,
} from './write-limits.js';

/**
 * A service that stores what readers send (search signals, saved-books events): each write is charged
 * to its writer (`WriteLimits`), so past the cap nothing is stored, and a repeat of the same write
 * (the same `said`) from the same writer in the window is stored once.
 */
export abstract class ReaderWrites {
  constructor(
    protected readonly db: Db,
    private readonly writes: WriteLimits,
  ) {}

  /** Runs `store` when the write is admitted; the admission either way. */
  protected async admitted(
    kind: WriteKind,
    writer: Writer,
    said: ReadonlyArray<string | number | null>,
    store: (db: Db) => Promise<unknown>,
  ): Promise<Admission> {
    const admission = await this.writes.admit(kind, writer, writeFingerprint(...said));
    if (admission.kind === 'admitted') await store(this.db);
    return admission;
  }
}
