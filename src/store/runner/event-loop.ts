import type { Steps } from '../../domain/steps.ts';

// Long work on a large fleet (a reload of 10,000 files) is cut into steps; between two steps
// the event loop takes its turn, so polls and health checks are answered meanwhile.
//
// One setImmediate is not always a turn: called from a poll-phase callback (a file read that
// completed), it runs in the same iteration's check phase, before sockets are polled again,
// so a request that arrived meanwhile would still wait. The second one, set from the check
// phase, runs in the next iteration, after its poll phase.
//
// Several computations in slices may run at once (a write's audit lines, the history's walk
// of the fleet, a preview): all of them resume in the same check phase, one after another.
// Each measuring its own slice would hold the loop for a slice each; so the slice is the
// loop's: it starts when the first of them runs after the loop last reached its timers — the
// phase before the poll for sockets — and the others, running later in the same iteration,
// find it spent and do one step before they yield.

/** How long a computation in steps holds the event loop at most before it lets requests in (a step's length aside). */
export const SLICE_MS = 10;

/** When the first computation in slices ran since the loop last passed its timers; undefined: none has. */
let sliceStarted: number | undefined;

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Whether the loop's slice has run `sliceMs` (and notes that one runs now). */
function sliceSpent(sliceMs: number): boolean {
  const now = performance.now();
  if (sliceStarted === undefined) {
    sliceStarted = now;
    // A timer runs in the next iteration's timers phase at the earliest: the slice ends there.
    setTimeout(() => {
      sliceStarted = undefined;
    }, 0).unref();
    return false;
  }
  return now - sliceStarted >= sliceMs;
}

/**
 * Runs a domain computation in steps (../domain/steps.ts), letting the event loop turn once a
 * slice has run SLICE_MS: short steps are not each paid a turn, and no slice holds polls much
 * longer than one step.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  sliceSpent(sliceMs);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (sliceSpent(sliceMs)) await yieldToEventLoop();
  }
}

/**
 * The same for work written with awaits rather than as steps (building a commit of 1,000
 * files): `await slices.turnIfDue()` between two pieces lets the event loop turn once the
 * current slice has run SLICE_MS.
 */
export class SliceTimer {
  constructor() {
    sliceSpent(SLICE_MS);
  }

  async turnIfDue(): Promise<void> {
    if (sliceSpent(SLICE_MS)) await yieldToEventLoop();
  }
}

/**
 * How long a slice of background work (the history's walk of the fleet) runs at most: a
 * request that comes in meanwhile waits for the rest of it.
 */
export const BACKGROUND_SLICE_MS = 2;

/**
 * Runs a computation in steps at a lower priority than the store's queue: each slice of at
 * most BACKGROUND_SLICE_MS waits for `whenQuiet` (the queue has nothing queued or running, or
 * it has waited its bound) and then for a turn of the event loop, so a load or a write that
 * comes meanwhile runs first, and then only waits for the slice running when it came.
 */
export async function runInBackground<T>(
  steps: Steps<T>,
  whenQuiet: () => Promise<void>,
  sliceMs = BACKGROUND_SLICE_MS,
): Promise<T> {
  for (;;) {
    await whenQuiet();
    await yieldToEventLoop();
    const started = performance.now();
    do {
      const step = steps.next();
      if (step.done) return step.value;
    } while (performance.now() - started < sliceMs);
  }
}
