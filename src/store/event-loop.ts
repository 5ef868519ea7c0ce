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
