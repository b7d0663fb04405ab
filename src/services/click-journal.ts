import { randomBytes } from 'node:crypto';
import { writeSync } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The write-ahead journal of clicks: `/go/` appends its click here and answers only once the line is
 * written to the journal file, so a kill -9 (or any crash of the process) loses no redirected click;
 * the recorder writes clicks to the database as before and records in the same transaction how far it
 * got (`settings`, `click-journal:<id>`), so a replay after a crash skips what was already written and
 * counts no click twice.
 *
 * Group commit keeps `/go/` fast: with `interval` the lines of one turn of the event loop are written
 * together at its end; with `always`, appends that arrive while one write and fsync run wait for the
 * next, which writes all of them at once. Durability against a crash of the machine itself (power,
 * kernel) is a choice (`CLICK_WAL_FSYNC`): `interval` (default) fsyncs in the background every 100 ms,
 * like PostgreSQL's `synchronous_commit = off` or Redis's `appendfsync everysec`; `always` fsyncs each
 * group before its redirects are answered (one fsync for every request of those few milliseconds).
 *
 * Layout: `<dir>/<pid>-<id>/<n>.log`, one JSON line per click (`{"s":seq,"c":click}`). The process id
 * tells a live journal from an orphan; a journal is claimed for replay by renaming it to the claiming
 * process's id (atomic, so two instances starting at once never replay the same file).
 */
export interface JournalEntry<Record> {
  seq: number;
  record: Record;
}

export interface JournalLogger {
  error(details: object, message: string): void;
}

const SEGMENT_BYTES = 8 * 1024 * 1024;
const BACKGROUND_SYNC_MS = 100;

/** When the journal is fsynced: before each answer (`always`) or every 100 ms (`interval`). */
export type JournalSync = 'always' | 'interval';
const JOURNAL_NAME = /^(\d+)-([a-z0-9]+)$/;
const SEGMENT_NAME = /^(\d+)\.log$/;

interface Segment {
  number: number;
  handle: FileHandle;
  bytes: number;
  lastSeq: number;
}

interface Waiter {
  resolve(): void;
}

export class ClickJournal<Record> {
  private seq = 0;
  private current: Segment | null = null;
  private readonly older: Array<{ number: number; lastSeq: number }> = [];
  private queued: string[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | null = null;
  private failed = false;
  private dirty = false;
  private readonly syncTimer: NodeJS.Timeout | null = null;

  private constructor(
    readonly id: string,
    private readonly path: string,
    private readonly serialize: (record: Record) => unknown,
    private readonly logger: JournalLogger,
    private readonly sync: JournalSync,
  ) {
    if (sync === 'interval') {
      this.syncTimer = setInterval(() => void this.syncInBackground(), BACKGROUND_SYNC_MS);
      this.syncTimer.unref();
    }
  }

  /** A new journal of this process under `dir` (created if missing). */
  static async open<Record>(
    dir: string,
    serialize: (record: Record) => unknown,
    logger: JournalLogger,
    sync: JournalSync = 'interval',
  ): Promise<ClickJournal<Record>> {
    const id = randomBytes(8).toString('hex');
    const path = join(dir, `${process.pid}-${id}`);
    await mkdir(path, { recursive: true });
    const journal = new ClickJournal(id, path, serialize, logger, sync);
    await journal.openSegment(1);
    await syncDirectory(path);
    await syncDirectory(dir);
    return journal;
  }

  /** Numbers the record now; the promise resolves once its line is written (never rejects). */
  append(record: Record): { seq: number; durable: Promise<void> } {
    this.seq += 1;
    const seq = this.seq;
    this.queued.push(`${JSON.stringify({ s: seq, c: this.serialize(record) })}\n`);
    const durable = new Promise<void>((resolve) => this.waiters.push({ resolve }));
    if (!this.writing) this.writing = this.sync === 'interval' ? this.writeAtTurnEnd() : this.writeLoop();
    return { seq, durable };
  }

  /** Everything up to `seq` is in the database: segments holding nothing newer are deleted. */
  async checkpoint(seq: number): Promise<void> {
    while (this.older.length > 0 && (this.older[0]?.lastSeq ?? Infinity) <= seq) {
      const segment = this.older.shift();
      if (segment) await rm(join(this.path, `${segment.number}.log`), { force: true });
    }
  }

  /** Closes the file; `remove` deletes the journal (everything in it is in the database). */
  async close(remove: boolean): Promise<void> {
    if (this.syncTimer) clearInterval(this.syncTimer);
    await this.writing;
    if (!remove) await this.current?.handle.datasync().catch(() => undefined);
    await this.current?.handle.close();
    this.current = null;
    if (remove) await rm(this.path, { recursive: true, force: true });
  }

  private async openSegment(number: number): Promise<Segment> {
    const handle = await open(join(this.path, `${number}.log`), 'a');
    this.current = { number, handle, bytes: 0, lastSeq: this.seq };
    return this.current;
  }

  /**
   * `interval`: every line queued in this turn of the event loop, written at its end (setImmediate)
   * in one synchronous write, which lands in the page cache at once; the background fsync takes it to
   * disk. An asynchronous write costs a hand-off to libuv's thread pool and a wake-up back, several
   * system calls a group; with few clicks a turn that was most of a click's journal cost
   * (bench/runs/2026-12-02-run-29.md). A segment that is full is rotated by `writeLoop`.
   */
  private async writeAtTurnEnd(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const current = this.current;
    if (!current || current.bytes >= SEGMENT_BYTES) return this.writeLoop();
    const group = this.takeQueued();
    try {
      const data = Buffer.from(group.data);
      for (let written = 0; written < data.length; )
        written += writeSync(current.handle.fd, data, written, data.length - written);
      this.wrote(current, data.length, group.lastSeq);
    } catch (error) {
      this.writeFailed(error);
    }
    for (const waiter of group.waiters) waiter.resolve();
    this.writing = null;
  }

  /** One write (and with `always` one fsync) for everything queued; repeated while appends keep arriving. */
  private async writeLoop(): Promise<void> {
    while (this.queued.length > 0) {
      const group = this.takeQueued();
      try {
        const segment = await this.segmentForWrite();
        await segment.handle.write(group.data);
        if (this.sync === 'always') await segment.handle.datasync();
        this.wrote(segment, Buffer.byteLength(group.data), group.lastSeq);
      } catch (error) {
        this.writeFailed(error);
      }
      for (const waiter of group.waiters) waiter.resolve();
    }
    this.writing = null;
  }

  /** Everything queued, as one write's data, with its waiters and the sequence number it reaches. */
  private takeQueued(): { data: string; waiters: Waiter[]; lastSeq: number } {
    const group = { data: this.queued.join(''), waiters: this.waiters, lastSeq: this.seq };
    this.queued = [];
    this.waiters = [];
    return group;
  }

  private wrote(segment: Segment, bytes: number, lastSeq: number): void {
    if (this.sync === 'interval') this.dirty = true;
    segment.bytes += bytes;
    segment.lastSeq = lastSeq;
    if (this.failed) this.logger.error({}, 'click journal writes again');
    this.failed = false;
  }

  /** The redirect goes ahead: the click stays in memory and reaches the database as before. */
  private writeFailed(error: unknown): void {
    if (!this.failed) this.logger.error({ err: error }, 'click journal write failed; clicks kept in memory');
    this.failed = true;
  }

  /** `interval`: what was written since the last tick goes to disk (a crash of the machine loses ≤ 100 ms). */
  private async syncInBackground(): Promise<void> {
    if (!this.dirty || !this.current) return;
    this.dirty = false;
    await this.current.handle.datasync().catch((error: unknown) => {
      this.logger.error({ err: error }, 'click journal fsync failed');
    });
  }

  private async segmentForWrite(): Promise<Segment> {
    const current = this.current;
    if (!current) throw new Error('click journal is closed');
    if (current.bytes < SEGMENT_BYTES) return current;
    await current.handle.datasync();
    await current.handle.close();
    this.older.push({ number: current.number, lastSeq: current.lastSeq });
    return this.openSegment(current.number + 1);
  }
}

/** A journal left by a process that is gone (or by this process's previous life under the same id). */
export interface OrphanJournal {
  id: string;
  path: string;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims every orphan journal under `dir` for this process (a rename: only one claimant wins). */
export async function claimOrphanJournals(dir: string): Promise<OrphanJournal[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const claimed: OrphanJournal[] = [];
  for (const name of names) {
    const match = JOURNAL_NAME.exec(name);
    if (!match || isAlive(Number(match[1]))) continue;
    const id = match[2] as string;
    const path = join(dir, `${process.pid}-${id}`);
    try {
      if (name !== `${process.pid}-${id}`) await rename(join(dir, name), path);
      if (!(await stat(path)).isDirectory()) continue;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    claimed.push({ id, path });
  }
  return claimed;
}

/** The records of a journal in order; a torn last line (the crash hit mid-write) is skipped. */
export async function readJournal(path: string): Promise<Array<JournalEntry<unknown>>> {
  const segments = (await readdir(path))
    .map((name) => SEGMENT_NAME.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b);
  const entries: Array<JournalEntry<unknown>> = [];
  for (const number of segments) {
    const text = await readFile(join(path, `${number}.log`), 'utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const parsed = JSON.parse(line) as { s?: unknown; c?: unknown };
        if (typeof parsed.s === 'number' && parsed.c !== undefined)
          entries.push({ seq: parsed.s, record: parsed.c });
      } catch {
        // Only the last line of a segment can be torn; it was never acknowledged.
      }
    }
  }
  return entries;
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the files themselves are synced.
  } finally {
    await handle.close();
  }
}
