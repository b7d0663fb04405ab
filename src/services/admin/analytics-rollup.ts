import { setTimeout as delay } from 'node:timers/promises';
import { rollStep } from '../../store/analytics-rollup.js';
import type { Db } from '../../store/schema.js';

/**
 * Keeps the click roll-ups current off the request path: at start it back-fills existing clicks a day
 * per transaction (a few ms each, with a pause between so pages and redirects get the database), then
 * checks every few minutes for a newly finished day. Page requests never roll anything up.
 */
export interface RollupWorkerOptions {
  /** Pause after a step that found nothing to do. */
  idleMs?: number;
  /** Pause between two steps of a back-fill, so a single SQLite connection is shared fairly. */
  stepPauseMs?: number;
  logger: { error(details: object, message: string): void };
}

export interface RollupWorker {
  stop(): Promise<void>;
}

export function startRollupWorker(db: Db, options: RollupWorkerOptions): RollupWorker {
  const stopper = new AbortController();
  const idleMs = options.idleMs ?? 5 * 60_000;
  const stepPauseMs = options.stepPauseMs ?? 25;
  const pause = (ms: number) => delay(ms, undefined, { signal: stopper.signal, ref: false });
  const loop = (async () => {
    while (!stopper.signal.aborted) {
      let wait = stepPauseMs;
      try {
        if ((await rollStep(db)) === 'done') wait = idleMs;
      } catch (error) {
        // A database outage must not end the worker: it tries again after the idle pause.
        options.logger.error({ err: error }, 'click roll-up step failed');
        wait = idleMs;
      }
      await pause(wait).catch(() => undefined);
    }
  })();
  return {
    stop: async () => {
      stopper.abort();
      await loop;
    },
  };
}
