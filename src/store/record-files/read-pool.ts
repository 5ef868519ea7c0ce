// A bound on how many files are open at once. A fleet of 50,000 cluster files must not open
// 50,000 descriptors in one go (EMFILE); a small pool keeps the disk busy all the same.
export const READ_CONCURRENCY = 32;

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
      return await task();
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
