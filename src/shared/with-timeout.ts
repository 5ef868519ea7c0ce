// Waiting for something a bounded time: the service's one timer around a promise (the first
// revision at start, the step before publishing, a DNS look for the other replicas). The work
// is not cancelled when the time is up — it goes on, and its answer is dropped —; the timer is
// cleared whichever comes first, so that a finished wait keeps no process alive.

/** `work`'s value, or `late` once `ms` have passed first. A rejection of `work` in time is passed on. */
export async function withTimeout<T, L>(work: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<L>((resolve) => (timer = setTimeout(() => resolve(late), ms)));
  try {
    return await Promise.race([work, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
