// How many announcements each peer may make, and which revisions were held for already. A
// replica announces once per revision it publishes: a few a second at the very most, since a
// write is stored (pushed) before it is announced. Each announcement costs a look at the
// store's source, and one that finds something new a hold of the polls; a holder of
// PEER_TOKEN announcing in a loop gets neither beyond the limit.

/** Announcements a peer may make at once… */
export const ANNOUNCEMENT_BURST = 20;
/** …and how fast that allowance comes back. */
export const ANNOUNCEMENTS_PER_SECOND = 10;
/** Peers (by address) whose allowance is remembered; past this the one heard from longest ago is forgotten. */
const PEERS_REMEMBERED = 1024;
/** Revisions remembered as held for once, so that none is held for twice. */
const HOLDS_REMEMBERED = 256;

/** Why an announcement made this replica hold nothing (the metric's reasons). */
export const IGNORED_ANNOUNCEMENT_REASONS = ['rate_limited', 'nothing_new', 'held_before'] as const;
export type IgnoredAnnouncementReason = (typeof IGNORED_ANNOUNCEMENT_REASONS)[number];

export class AnnouncementLimit {
  /** By peer, least recently heard first: the allowance left and when it was worked out. */
  readonly #buckets = new Map<string, { left: number; at: number }>();
  readonly #held = new Set<string>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Takes one announcement from `peer`'s allowance; false when none is left. */
  take(peer: string): boolean {
    const now = this.#now();
    const bucket = this.#buckets.get(peer) ?? { left: ANNOUNCEMENT_BURST, at: now };
    bucket.left = Math.min(ANNOUNCEMENT_BURST, bucket.left + ((now - bucket.at) / 1000) * ANNOUNCEMENTS_PER_SECOND);
    bucket.at = now;
    this.#buckets.delete(peer);
    this.#buckets.set(peer, bucket);
    if (this.#buckets.size > PEERS_REMEMBERED) this.#buckets.delete(this.#buckets.keys().next().value!);
    if (bucket.left < 1) return false;
    bucket.left -= 1;
    return true;
  }

  /** Whether polls were held for `revision` before. */
  heldBefore(revision: string): boolean {
    return this.#held.has(revision);
  }

  /** Polls are held for `revision` now: never again. */
  holding(revision: string): void {
    this.#held.add(revision);
    if (this.#held.size > HOLDS_REMEMBERED) this.#held.delete(this.#held.values().next().value!);
  }
}
