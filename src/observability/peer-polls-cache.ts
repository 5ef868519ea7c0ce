// The other replicas' polls as the fleet series read them (./fleet-series.ts): gathered in the
// background, at most once a minute, when a scrape finds them older than that. Gathering is
// the fleet view's exchange (about 8 MB of JSON per peer at 50,000 clusters), too heavy for
// every scrape of every replica; a minute's lag changes nothing for series that alerts read
// over half an hour. Until the first gathering has ended, a scrape waits for it (the peers
// answer within 3 s or are left out), so that no cluster that polls only another replica is
// counted silent here.
import type { GatheredPolls } from '../peers/peers.ts';
import type { PollLookup } from '../serving/fleet-polls.ts';
import { MergedPolls } from '../serving/merged-polls.ts';

/** How old the peers' polls may get before a scrape gathers them again. */
export const PEER_POLLS_REFRESH_MS = 60_000;

export class PeerPollsCache {
  readonly #gather: () => Promise<Pick<GatheredPolls, 'polls'>>;
  readonly #refreshMs: number;
  #polls: readonly PollLookup[] = [];
  /** performance.now() when the last gathering ended; undefined before the first. */
  #gatheredAt: number | undefined;
  #gathering: Promise<void> | undefined;

  constructor(gather: () => Promise<Pick<GatheredPolls, 'polls'>>, refreshMs = PEER_POLLS_REFRESH_MS) {
    this.#gather = gather;
    this.#refreshMs = refreshMs;
  }

  /** `local` with the peers' polls merged in (local first: on equal times its poll is kept). */
  async merged(local: PollLookup): Promise<PollLookup> {
    const stale = this.#gatheredAt === undefined || performance.now() - this.#gatheredAt >= this.#refreshMs;
    if (this.#gathering === undefined && stale) this.#gathering = this.#refresh();
    if (this.#gatheredAt === undefined) await this.#gathering;
    return this.#polls.length === 0 ? local : new MergedPolls(local, this.#polls);
  }

  async #refresh(): Promise<void> {
    try {
      // A peer that does not answer is logged and counted by the gathering itself, and left out.
      this.#polls = (await this.#gather()).polls;
    } catch {
      // The gathering catches every peer's failure; should anything else fail, the polls
      // gathered before stay (nothing awaits this in the background to be told).
    } finally {
      this.#gatheredAt = performance.now();
      this.#gathering = undefined;
    }
  }
}
