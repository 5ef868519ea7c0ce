// How many events one cluster may send (POST /api/v2/gitops/events): a bucket per cluster that
// holds `burst` events and fills at `perSecond`. A cluster whose bucket is empty is refused with
// how long until the next event is taken (EventsRateLimited, 429 with Retry-After), and what it
// sent is not kept. One bucket per cluster of the fleet at most: only an authenticated cluster
// reaches it, and buckets that have filled up again are forgotten.
export interface EventRateSettings {
  /** EVENTS_RATE: events a second each cluster may send, on average. */
  perSecond: number;
  /** EVENTS_BURST: events a cluster may send at once. */
  burst: number;
}

/** A cluster sent more events than EVENTS_RATE and EVENTS_BURST allow. */
export class EventsRateLimited extends Error {
  readonly retryAfterSeconds: number;

  constructor(clusterId: string, settings: EventRateSettings, retryAfterSeconds: number) {
    super(
      `cluster "${clusterId}" sent more than ${settings.burst} events at once or ${settings.perSecond} a second ` +
        `(EVENTS_BURST, EVENTS_RATE); this event is not kept`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets past this many are swept of those that are full again. */
const SWEEP_AT = 4096;

export class EventRateLimit {
  readonly #settings: EventRateSettings;
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;
  #sweepAt = SWEEP_AT;

  constructor(settings: EventRateSettings, now: () => number = Date.now) {
    this.#settings = settings;
    this.#now = now;
  }

  /** Takes one event of `clusterId` from its bucket; throws EventsRateLimited when it is empty. */
  take(clusterId: string): void {
    const now = this.#now();
    const { perSecond, burst } = this.#settings;
    const bucket = this.#buckets.get(clusterId) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.#buckets.set(clusterId, bucket);
      throw new EventsRateLimited(clusterId, this.#settings, Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)));
    }
    bucket.tokens -= 1;
    this.#buckets.set(clusterId, bucket);
    if (this.#buckets.size >= this.#sweepAt) this.#sweep(now);
  }

  /** Clusters with a bucket now. */
  get size(): number {
    return this.#buckets.size;
  }

  #sweep(now: number): void {
    const { perSecond, burst } = this.#settings;
    for (const [id, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * perSecond >= burst) this.#buckets.delete(id);
    }
    this.#sweepAt = Math.max(SWEEP_AT, 2 * this.#buckets.size);
  }
}
