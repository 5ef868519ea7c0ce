// Runs async tasks one at a time, in the order they were queued: the runner's one queue of
// loads, write turns and a backend's own looks, and the writes' order (a promise chain, no polling).
// A task that fails does not stop the ones after it.
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task queued so far has finished. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}
