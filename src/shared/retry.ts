// The pauses between attempts of anything the service tries again (the store, the OIDC
// issuer): exponential (each pause's ceiling doubles, up to a cap), optionally jittered,
// optionally bounded by a deadline or a number of retries, back to the first pause after a reset.
//
// Jitter is "full jitter": each pause is drawn uniformly below its ceiling. Two processes
// that failed at the same instant (two writers whose pushes crossed) then wait different
// times and stop meeting again, where fixed pauses would keep them in step.
export interface RetryPolicyOptions {
  /** The first pause (its ceiling, when jittered), in ms. */
  firstMs: number;
  /** No pause is longer than this, in ms. */
  maxMs: number;
  /** Each pause drawn uniformly in [0, its ceiling) instead of the ceiling itself. */
  jitter?: boolean;
  /** The time (as `now()` tells it) after which no further attempt starts: pauses end by then. */
  deadline?: number;
  /** At most this many pauses (attempts after the first). */
  maxRetries?: number;
  /** A number in [0, 1): Math.random unless a test seeds its own. */
  random?: () => number;
  /** Milliseconds since the epoch: Date.now unless a test keeps its own clock. */
  now?: () => number;
}

export class RetryPolicy {
  readonly #options: RetryPolicyOptions;
  readonly #random: () => number;
  readonly #now: () => number;
  #ceiling: number;
  #retries = 0;

  constructor(options: RetryPolicyOptions) {
    if (!(options.firstMs > 0) || options.maxMs < options.firstMs)
      throw new RangeError(`a retry policy needs 0 < firstMs <= maxMs (got ${options.firstMs}, ${options.maxMs})`);
    this.#options = options;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    this.#ceiling = options.firstMs;
  }

  /**
   * The pause to wait before the next attempt, or undefined when there is to be none: the
   * deadline has passed, or the retries are used up. A pause never runs past the deadline.
   */
  next(): number | undefined {
    const { deadline, maxRetries, jitter } = this.#options;
    if (maxRetries !== undefined && this.#retries >= maxRetries) return undefined;
    const left = deadline === undefined ? Infinity : deadline - this.#now();
    if (left <= 0) return undefined;
    const ceiling = this.#ceiling;
    this.#ceiling = Math.min(ceiling * 2, this.#options.maxMs);
    this.#retries++;
    const pause = jitter ? Math.floor(this.#random() * ceiling) : ceiling;
    return Math.min(pause, left);
  }

  /** The ceiling of the next pause (for logs). */
  peek(): number {
    return this.#ceiling;
  }

  /** Pauses given so far. */
  get retries(): number {
    return this.#retries;
  }

  /** After a success: the next failure starts from the first pause again. */
  reset(): void {
    this.#ceiling = this.#options.firstMs;
    this.#retries = 0;
  }
}

export interface RetryOptions extends RetryPolicyOptions {
  /** Whether a failed attempt is tried again (after a pause); false: its error is thrown at once. */
  retryable: (error: unknown) => boolean;
  /** What is thrown when the pauses are used up (the deadline passed, the retries spent); by default the error. */
  exhausted?: (error: unknown, attempts: number) => unknown;
  /** Told before each pause, with the error that caused it and the pause. */
  pausing?: (error: unknown, ms: number) => void;
}

/**
 * The service's one retry loop: `attempt` until it returns, with the policy's pauses between
 * tries, while its error is `retryable` and the policy allows another. The policy is made at
 * the first failure, so an attempt that succeeds at once costs nothing more.
 */
export async function retry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  let pauses: RetryPolicy | undefined;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!options.retryable(error)) throw error;
      const wait = (pauses ??= new RetryPolicy(options)).next();
      if (wait === undefined) throw options.exhausted ? options.exhausted(error, n) : error;
      options.pausing?.(error, wait);
      await new Promise((resume) => setTimeout(resume, wait));
    }
  }
}
