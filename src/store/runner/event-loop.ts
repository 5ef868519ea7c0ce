import type { Steps } from '../../domain/steps.ts';

// Long work on a large fleet (a reload of 10,000 files) is cut into steps; between two steps
// the event loop takes its turn, so polls and health checks are answered meanwhile.
//
// One setImmediate is not always a turn: called from a poll-phase callback (a file read that
// completed), it runs in the same iteration's check phase, before sockets are polled again,
// so a request that arrived meanwhile would still wait. The second one, set from the check
// phase, runs in the next iteration, after its poll phase.
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** How long a computation in steps holds the event loop at most before it lets requests in (a step's length aside). */
export const SLICE_MS = 10;

/**
 * Runs a domain computation in steps (../domain/steps.ts), letting the event loop turn once a
 * slice has run SLICE_MS: short steps are not each paid a turn, and no slice holds polls much
 * longer than one step.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started < sliceMs) continue;
    await yieldToEventLoop();
    started = performance.now();
  }
}
