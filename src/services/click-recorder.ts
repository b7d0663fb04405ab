import { rm } from 'node:fs/promises';
import { type ClickRecord, forgetJournalMark, insertClicks, journalMark } from '../store/click-writes.js';
import type { Db } from '../store/schema.js';
import {
  appendDeadLetter,
  BufferedWriter,
  type Entry,
  type WriterLogger,
  writeSettingAside,
} from './buffered-writer.js';
import { ClickJournal, claimOrphanJournals, type JournalSync, readJournal } from './click-journal.js';

/**
 * Records outbound clicks off the request path with the buffered writer (`buffered-writer.ts`): `/go/`
 * pushes into memory and the writer stores the buffer as one multi-row insert per second. With a
 * journal (`CLICK_WAL_DIR`), each click is also appended to a local write-ahead file and `record`
 * resolves once it is on disk, so `/go/` redirects only after its click would survive a kill -9; the
 * journal is replayed at the next start. Without one, a graceful shutdown (`close`) loses nothing and a
 * hard kill loses at most one interval. Clicks the database refuses are set aside in the dead-letter
 * file; while it is unreachable nothing is given up (up to `maxPending`).
 */
export type Click = ClickRecord;

export type ClickRecorderLogger = WriterLogger;

export interface ClickRecorderOptions {
  flushIntervalMs?: number;
  /** Flush as soon as this many clicks wait, whatever the timer says. */
  maxBatch?: number;
  /** Consecutive failed flushes after which a refused batch is split and its bad rows set aside. */
  maxRetries?: number;
  /** Clicks kept while the database is unreachable; beyond it the oldest are dropped. */
  maxPending?: number;
  /** Pause between failed attempts while `close` drains the buffer. */
  retryDelayMs?: number;
  logger?: ClickRecorderLogger;
  /** The write-ahead journal of this process (see `openClickJournal`); null keeps clicks in memory only. */
  journal?: ClickJournal<Click> | null;
  /** Where rows the database refuses are appended (JSON lines); unset: only logged. */
  deadLetterFile?: string | null;
}

export interface ClickRecorderStats {
  recorded: number;
  flushed: number;
  pending: number;
  /** Given up, refused rows set aside included. */
  dropped: number;
  failedFlushes: number;
}

const consoleLogger: ClickRecorderLogger = {
  error: (details, message) => console.error(message, details),
};

/** Writes a batch of clicks with the journal position it reaches, in one transaction. */
const clickWrite = (db: Db, journal: string | null) => (clicks: readonly Click[], through?: number) =>
  insertClicks(db, clicks, journal && through ? { journal, seq: through } : undefined);

export class ClickRecorder {
  private readonly writer: BufferedWriter<Click>;
  private readonly journal: ClickJournal<Click> | null;

  constructor(
    private readonly db: Db,
    options: ClickRecorderOptions = {},
  ) {
    this.journal = options.journal ?? null;
    this.writer = new BufferedWriter<Click>({
      name: 'click',
      write: clickWrite(db, this.journal?.id ?? null),
      flushIntervalMs: options.flushIntervalMs ?? 1000,
      // A commit costs about as much as a few hundred rows: 1,000 a batch gave `/go/` a quarter to a third
      // more clicks a second than 200 (bench/runs/2026-12-02-run-29.md).
      maxBatch: options.maxBatch ?? 1000,
      maxRetries: options.maxRetries ?? 5,
      maxPending: options.maxPending ?? 100_000,
      retryDelayMs: options.retryDelayMs,
      logger: options.logger ?? consoleLogger,
      journal: this.journal,
      deadLetterFile: options.deadLetterFile,
    });
  }

  /**
   * Never throws and never fails: a click must not break a redirect. The promise resolves at once
   * without a journal, and once the click is on disk with one (the redirect should wait for it).
   */
  record(click: Click): Promise<void> {
    return this.writer.record(click);
  }

  /** Writes every click recorded before the call. Resolves even when the write failed. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /**
   * Stops the timer and writes everything still waiting (retrying up to the bound) before resolving.
   * The journal is deleted when everything reached the database, and kept for the next start otherwise.
   */
  async close(): Promise<void> {
    const complete = await this.writer.close();
    if (this.journal && complete) await forgetJournalMark(this.db, this.journal.id).catch(() => undefined);
  }

  stats(): ClickRecorderStats {
    const { recorded, flushed, pending, dropped, setAside, failedFlushes } = this.writer.stats();
    return { recorded, flushed, pending, dropped: dropped + setAside, failedFlushes };
  }
}

/** A click as read back from a journal line (dates were written as ISO strings). */
function journaledClick(record: unknown): Click | null {
  if (typeof record !== 'object' || record === null) return null;
  const fields = record as Record<string, unknown>;
  const at = new Date(String(fields.at));
  if (Number.isNaN(at.getTime())) return null;
  return { ...(fields as unknown as Click), at };
}

export interface JournalSetup {
  /** The directory holding this database's journals (under `CLICK_WAL_DIR`). */
  dir: string;
  deadLetterFile: string | null;
  logger?: ClickRecorderLogger;
}

/** The dead-letter file in `CLICK_WAL_DIR`. */
export const deadLetterPath = (dir: string) => `${dir}/dead-letter.jsonl`;

/**
 * Writes the clicks of journals left by processes that died (kill -9, a crash, a power cut) and deletes
 * them. Idempotent: clicks the dead process had already written are skipped by the journal's mark, and
 * a crash during the replay leaves a journal the next start replays from where this one stopped.
 */
export async function replayClickJournals(
  db: Db,
  { dir, deadLetterFile, logger = consoleLogger }: JournalSetup,
): Promise<{ journals: number; replayed: number }> {
  let replayed = 0;
  const orphans = await claimOrphanJournals(dir);
  for (const orphan of orphans) {
    const mark = await journalMark(db, orphan.id);
    const entries: Entry<Click>[] = [];
    for (const { seq, record } of await readJournal(orphan.path)) {
      const click = journaledClick(record);
      if (seq > mark && click) entries.push({ row: click, seq });
    }
    for (let start = 0; start < entries.length; start += 1000) {
      const chunk = entries.slice(start, start + 1000);
      const result = await writeSettingAside(chunk, clickWrite(db, orphan.id), async (entry, error) => {
        logger.error({ err: error, click: entry.row }, 'journaled click refused by the database; set aside');
        await appendDeadLetter(deadLetterFile, 'click', entry.row, error);
        return 1;
      });
      if (result.remaining.length > 0)
        throw new Error('the database became unreachable while replaying clicks');
      replayed += chunk.length - result.setAside;
    }
    await rm(orphan.path, { recursive: true, force: true });
    await forgetJournalMark(db, orphan.id);
  }
  return { journals: orphans.length, replayed };
}

/** This process's journal under `dir`, for `ClickRecorderOptions.journal`. */
export function openClickJournal(
  dir: string,
  sync: JournalSync = 'interval',
  logger: ClickRecorderLogger = consoleLogger,
) {
  return ClickJournal.open<Click>(dir, (click) => click, logger, sync);
}

export function createClickRecorder(db: Db, options: ClickRecorderOptions = {}): ClickRecorder {
  return new ClickRecorder(db, options);
}
