// Long work in the domain (judging a large change set, comparing every cluster of two
// revisions) is written as a generator that pauses between its steps: it stays pure, and a
// caller that shares its thread with requests (the store) lets them in at the pauses, while a
// caller that does not (a tool, a test) runs it to its end at once.

/** A computation of a T that pauses (yields) between steps of bounded work. */
export type Steps<T> = Generator<void, T, void>;

/** Runs every step at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
