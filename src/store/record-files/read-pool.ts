// A bound on how many files are open at once. A fleet of 50,000 cluster files must not open
// 50,000 descriptors in one go (EMFILE); a small pool keeps the disk busy all the same. A read
// that meets a passing shortage (descriptors, kernel buffers, a busy device) is tried again
// after a growing pause instead of failing the whole load.
import { setTimeout as pause } from 'node:timers/promises';

export const READ_CONCURRENCY = 32;

/** Errors that say "not now" rather than "not at all". */
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'ENOMEM']);
/** Pauses before each new try, in ms: about 1.5 s in all before the error stands. */
const RETRY_PAUSES = [10, 40, 150, 400, 900];

export function isTransient(error: unknown): boolean {
  return TRANSIENT.has((error as NodeJS.ErrnoException)?.code ?? '');
}

export class ReadPool {
  readonly #limit: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limit = READ_CONCURRENCY) {
    this.#limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.#limit) await new Promise<void>((resume) => this.#waiting.push(resume));
    this.#active++;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await task();
        } catch (error) {
          if (!isTransient(error) || attempt >= RETRY_PAUSES.length) throw error;
          await pause(RETRY_PAUSES[attempt]);
        }
      }
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }

  /** Runs `task` for every item, at most `limit` at a time; results in the order of `items`. */
  map<I, T>(items: readonly I[], task: (item: I) => Promise<T>): Promise<T[]> {
    return Promise.all(items.map((item) => this.run(() => task(item))));
  }
}

/** The pool every file read of the process goes through. */
export const fileReads = new ReadPool();
