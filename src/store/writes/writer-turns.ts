// Taking turns with another writer of the same store (another instance pushing to the same
// branch). Each push is a compare-and-swap, so nothing is lost, but the race is not fair: the
// writer whose push just landed has its next write's base at once (its own commit), while
// the other must fetch the new head first, so it loses every race for as long as the first
// has writes to make — and its oldest write gives up at WRITE_TIMEOUT. Pauses on the losing
// side cannot fix that; only the winner can leave room.
//
// So while the store has lately moved under one of its writes (someone else writes too), a
// writer that has then won every race for a second waits about one commit's duration
// (jittered) before its next write: long enough for the other to fetch and push. Each side
// gets its turn a second or so at a time. A writer that never met a moved store never waits.
/** How long after the store moved under a write the writer leaves room for another. */
const CONTENTION_MEMORY_MS = 30_000;
/** How long a writer lands writes without the store moving under them before it leaves room. */
const WINNING_STREAK_MS = 1000;
/** The room left is between these bounds whatever a commit took. */
const MIN_ROOM_MS = 10;
const MAX_ROOM_MS = 2000;

export class WriterTurns {
  readonly #random: () => number;
  readonly #now: () => number;
  /** When a commit last found the store moved (-Infinity: never). */
  #movedAt = -Infinity;
  /** When a write last waited to leave room. */
  #roomAt = -Infinity;
  /** What the last commit that landed took. */
  #commitMs = 0;

  constructor(options: { random?: () => number; now?: () => number } = {}) {
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  /** A commit found the store moved: someone else writes to it. */
  moved(): void {
    this.#movedAt = this.#now();
  }

  /** A commit landed, after `ms`. */
  landed(ms: number): void {
    this.#commitMs = ms;
  }

  /**
   * The pause before the next write's first attempt: none unless the store moved under a write
   * lately and every race since has been won for WINNING_STREAK_MS; then half to one and a half
   * times what the last commit took.
   */
  roomBeforeWrite(): number {
    const now = this.#now();
    if (now - this.#movedAt >= CONTENTION_MEMORY_MS) return 0;
    if (now - Math.max(this.#movedAt, this.#roomAt) < WINNING_STREAK_MS) return 0;
    this.#roomAt = now;
    const typical = Math.min(Math.max(this.#commitMs, MIN_ROOM_MS), MAX_ROOM_MS);
    return Math.floor(typical * (0.5 + this.#random()));
  }
}
