// Runs async tasks one at a time: the write lock of the stores (no polling). A task that
// fails does not stop the ones after it.
//
// Tasks run in the order of their tickets, which is the order they were queued unless a
// caller keeps a ticket across turns: a write that left the queue to wait out a store that
// moved under it comes back with the ticket it first got, ahead of what was queued after it,
// so writes still finish in about the order they arrived while loads and other writes run
// during its pause.
interface Waiting {
  ticket: number;
  start(): void;
}

export class SerialQueue {
  /** Sorted by ticket. */
  readonly #waiting: Waiting[] = [];
  #running = false;
  #nextTicket = 0;

  /** A place in line, for a task queued now or later: it runs before every task with a later ticket not yet started. */
  ticket(): number {
    return this.#nextTicket++;
  }

  run<T>(task: () => Promise<T> | T, ticket = this.ticket()): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        // Always on a later microtask, never inside run(): a caller may keep the returned
        // promise before its task starts (the runner shares a queued load that way).
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.#running = false;
            this.#startNext();
          });
      };
      let at = this.#waiting.length;
      while (at > 0 && this.#waiting[at - 1]!.ticket > ticket) at--;
      this.#waiting.splice(at, 0, { ticket, start });
      this.#startNext();
    });
  }

  /** Resolves once every task queued so far has finished. */
  idle(): Promise<void> {
    return this.run(() => undefined);
  }

  #startNext(): void {
    if (this.#running) return;
    const next = this.#waiting.shift();
    if (!next) return;
    this.#running = true;
    next.start();
  }
}
