// Long work on a large fleet (a reload of 10,000 files) is cut into steps; between two steps
// the event loop takes its turn, so polls and health checks are answered meanwhile.
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
