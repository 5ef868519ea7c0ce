// Runs async tasks one at a time, in the order they were queued: the runner's one queue of
// loads, write turns and a backend's own looks, and the writes' order (a promise chain, no polling).
// A task that fails does not stop the ones after it.
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  /** Tasks queued or running. */
  #pending = 0;
  /** How many tasks have ended: tells whether any ran in a stretch of time. */
  #lastEnded = 0;
  /** Called once nothing is queued or running. */
  #onQuiet: (() => void)[] = [];

  run<T>(task: () => Promise<T> | T): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(task);
    this.#tail = result
      .catch(() => undefined)
      .finally(() => {
        this.#lastEnded++;
        if (--this.#pending > 0) return;
        const waiting = this.#onQuiet;
        this.#onQuiet = [];
        for (const resolve of waiting) resolve();
      });
    return result;
  }

  /** Resolves once every task queued so far has finished. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }

  /**
   * Resolves once nothing is queued or running (at once if nothing is), or after `maxWaitMs`
   * whatever the queue holds: for work of lower priority than the queue's, which must not
   * wait for ever behind a stream of tasks.
   */
  /**
   * Resolves once nothing has been queued or running for `forMs` in a row, or after `maxWaitMs`
   * whatever the queue holds: the gap between two writes a client sends back to back (the
   * answer's way to the client and the next request's way back) is not taken for quiet.
   */
  async quietFor(forMs: number, maxWaitMs: number): Promise<void> {
    const deadline = performance.now() + maxWaitMs;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) return;
      await this.quiet(left);
      if (this.#pending > 0) return; // waited its bound
      const lastEnded = this.#lastEnded;
      await new Promise((resolve) => setTimeout(resolve, forMs).unref());
      if (this.#pending === 0 && this.#lastEnded === lastEnded) return;
    }
  }

  quiet(maxWaitMs: number): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      timer.unref();
      this.#onQuiet.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
