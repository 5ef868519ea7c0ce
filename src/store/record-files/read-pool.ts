// A bound on how many files are open at once. A fleet of 50,000 cluster files must not open
// 50,000 descriptors in one go (EMFILE); a small pool keeps the disk busy all the same. A read
// that meets a passing shortage (descriptors, kernel buffers, a busy device) is tried again
// after a growing pause instead of failing the whole load.
import { retry } from '../../shared/retry.ts';

export const READ_CONCURRENCY = 32;

/** Errors that say "not now" rather than "not at all". */
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'ENOMEM']);
/**
 * The pauses before each new try: five, from 50 ms doubling to 800 ms, about 1.5 s in all
 * before the error stands. Not jittered: the reads of one process compete for the same
 * descriptors, and spreading them out is what the pool itself does.
 */
const RETRY = { firstMs: 50, maxMs: 800, maxRetries: 5, retryable: isTransient };

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
      return await retry(task, RETRY);
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

/**
 * The pool a write of many files goes through (a change set's objects and record files: up to
 * a thousand and more): each open file with a compression stream is some 300 KiB of memory
 * outside the heap, and a thousand at once ran out of descriptors and took half a gigabyte.
 */
export const fileWrites = new ReadPool(16);
