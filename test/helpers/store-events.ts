// Awaiting what the store runner did, instead of polling /ready or sleeping: a test starts
// watching before it changes the store, then awaits the load or publication of the revision
// it made (a local repo may also load the uncommitted edit first; that one is recorded too).
import type { RunningService } from '../../src/server.ts';
import type { PublishedRevision } from '../../src/store/runner/published-revision.ts';
import type { LoadOutcome } from '../../src/store/runner/store-events.ts';

export interface LoadWatch {
  /** Every load that ended since the watch began, in order. */
  outcomes: LoadOutcome[];
  /** The outcome of the load of `revision`, once it has ended. */
  until(revision: string, timeoutMs?: number): Promise<LoadOutcome>;
  stop(): void;
}

export function watchLoads(service: RunningService): LoadWatch {
  const outcomes: LoadOutcome[] = [];
  const waiting = new Set<() => void>();
  const stop = service.store.onLoad((outcome) => {
    outcomes.push(outcome);
    for (const wake of waiting) wake();
  });
  return {
    outcomes,
    stop,
    until(revision, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = outcomes.find((o) => o.revision === revision);
          if (!found) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no load of ${revision} ended within ${timeoutMs} ms (seen: ${JSON.stringify(outcomes)})`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
  };
}

/** Resolves when `revision` is published (at once if it is already served). */
export function published(service: RunningService, revision: string, timeoutMs = 10_000): Promise<PublishedRevision> {
  return new Promise((resolve, reject) => {
    const now = service.store.published();
    if (now?.snapshot.revision === revision) return resolve(now);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`${revision} was not published within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = service.store.onPublish((next) => {
      if (next.snapshot.revision !== revision) return;
      off();
      clearTimeout(timer);
      resolve(next);
    });
  });
}
