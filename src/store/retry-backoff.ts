// The pause before a failed load is tried again: doubled after each failure up to a ceiling,
// back to the first after a load that worked.
export class RetryBackoff {
  readonly #first: number;
  readonly #max: number;
  #next: number;

  constructor(firstMs: number, maxMs: number) {
    this.#first = firstMs;
    this.#max = maxMs;
    this.#next = firstMs;
  }

  /** The pause to wait now; the one after it is doubled. */
  take(): number {
    const pause = this.#next;
    this.#next = Math.min(this.#next * 2, this.#max);
    return pause;
  }

  /** The pause the next failure would wait (for logs). */
  peek(): number {
    return this.#next;
  }

  reset(): void {
    this.#next = this.#first;
  }
}
