import type { Store } from '../../store/db.js';
import { type RestoreProgress, restoreCatalogIndexes } from '../../store/deferred-indexes.js';
import { refreshSearchStatistics } from '../../store/search/vocabulary.js';
import type { FinishingEvent } from './summary.js';

type Report = ((event: FinishingEvent) => void) | undefined;

/** A phase's steps told to `report` as finishing events, counted. */
function phase(title: string, report: Report): RestoreProgress {
  let steps = 0;
  let done = 0;
  return {
    begin(count) {
      steps = count;
      report?.({ kind: 'phase', title, steps });
    },
    step(name, elapsedMs) {
      done += 1;
      report?.({ kind: 'step', name, done, steps, elapsedMs });
    },
  };
}

/** Builds what a first import deferred (nothing, and nothing told, if none is down). */
export function restoreIndexesTold(store: Store, report: Report): Promise<boolean> {
  return restoreCatalogIndexes(store, phase('Building the indexes this first import deferred', report));
}

/** Refreshes the search statistics (the words search corrects to) after an import, as a phase of one step. */
export async function refreshStatisticsTold(store: Store, report: Report): Promise<void> {
  const progress = phase('Refreshing the search statistics', report);
  progress.begin(1);
  const started = performance.now();
  await refreshSearchStatistics(store);
  progress.step('search statistics', performance.now() - started);
}
