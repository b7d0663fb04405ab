/**
 * Work that holds the event loop, spread over its turns, first come first served.
 *
 * Node accepts at most one new connection per turn of its event loop (libuv 1.45 and later: "don't
 * accept() connections in a loop"), and one turn runs the requests of every connection that has one
 * ready. On SQLite a search is about a millisecond of synchronous work, so a loop kept busy by 50
 * connections' searches turns once in some 40 ms, and a reader who opens a connection then waits a
 * turn for each one opened before theirs: the first answer on the last of 50 new connections came
 * 1.4 s after its request, while answers on connections already open took 45 ms
 * (bench/runs/2026-12-02-run-29.md, from packet times).
 *
 * `run` bounds what one turn does. Work that starts within `sliceMs` of the turn's first starts at
 * once; later work waits, in order of arrival, for the next turn, after the loop has accepted a
 * connection and read what arrived. A turn that finds work waiting starts the first of it and, as
 * each finishes, the next, while its slice lasts. An idle loop adds nothing: the first work of a turn
 * always starts at once. Nothing is limited but where work starts: work that waits on I/O (a
 * PostgreSQL query, a provider) holds no place while it waits.
 */
export class FairTurns {
  readonly #waiting: Array<() => void> = [];
  #sliceStart: number | null = null;
  #turnScheduled = false;
  #deferred = 0;

  constructor(
    private readonly sliceMs = 2,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs `work` now, or on a later turn of the event loop when this one has done its share. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#waiting.length === 0 && this.#inSlice()) return this.#start(work);
    this.#deferred++;
    return new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#scheduleTurn();
    }).then(() => this.#start(work));
  }

  /** How many runs have waited for a later turn since start. */
  deferred(): number {
    return this.#deferred;
  }

  /** Whether work may start in this turn's slice, opening one when none is open. */
  #inSlice(): boolean {
    if (this.#sliceStart === null) {
      this.#sliceStart = this.now();
      this.#scheduleTurn();
      return true;
    }
    return this.now() - this.#sliceStart < this.sliceMs;
  }

  #start<T>(work: () => Promise<T>): Promise<T> {
    return work().finally(() => {
      if (this.#waiting.length > 0 && this.#sliceStart !== null && this.#inSlice()) this.#waiting.shift()?.();
    });
  }

  #scheduleTurn(): void {
    if (this.#turnScheduled) return;
    this.#turnScheduled = true;
    setImmediate(() => this.#turn());
  }

  /** The check phase of a turn: the slice ends; work left waiting starts a new one. */
  #turn(): void {
    this.#turnScheduled = false;
    this.#sliceStart = null;
    const next = this.#waiting.shift();
    if (next === undefined) return;
    this.#sliceStart = this.now();
    this.#scheduleTurn();
    next();
  }
}
