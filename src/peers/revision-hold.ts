// Polls held back while this replica catches up with a revision another replica announced:
// that replica will serve it within a second, and a cluster that got it there must not get
// the revision before from here afterwards. A hold ends when this replica serves the
// revision (or a newer one), when the fetch it started ends without it, or after HOLD_MS,
// whichever comes first; a poll waits at most that long.
//
// The read path asks `active`, a plain field, on every poll: with no hold nothing else happens.

/** The longest a hold lasts, counted from the announcement. */
export const HOLD_MS = 2000;

export interface Hold {
  readonly revision: string;
  release(): void;
}

export class RevisionHold {
  /** True while at least one hold lasts. */
  active = false;
  readonly #holds = new Set<Hold>();
  #waiters: (() => void)[] = [];

  /** Holds polls until `release()`, at most `maxMs`. */
  begin(revision: string, maxMs = HOLD_MS): Hold {
    const hold: Hold = {
      revision,
      release: () => {
        clearTimeout(timer);
        if (!this.#holds.delete(hold) || this.#holds.size > 0) return;
        this.active = false;
        const waiters = this.#waiters;
        this.#waiters = [];
        for (const wake of waiters) wake();
      },
    };
    const timer = setTimeout(() => hold.release(), maxMs);
    timer.unref();
    this.#holds.add(hold);
    this.active = true;
    return hold;
  }

  /** The revisions held for now. */
  held(): Hold[] {
    return [...this.#holds];
  }

  /** Resolves once no hold lasts (at once when none does). */
  wait(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
