// The last events each cluster sent (POST /api/v2/gitops/events), kept in memory per replica and
// bounded twice: at most EVENTS_PER_CLUSTER per cluster (its oldest goes first) and at most
// `maxBytes` in all (the oldest of the whole fleet goes first). An event received again — the
// same fields, a delivery notification-controller retried — is not kept twice, and keeps its
// first moment. The rollouts read them (domain/rollouts/release-reports.ts); the other replicas
// fetch them like the poll records (./event-records.ts).
import { eventBytes, eventKey, type FluxEvent, type ReceivedEvent } from '../domain/events/flux-event.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import type { PublicationSource } from './current-responses.ts';

/** Events kept per cluster: an upgrade of every component of a cluster at once, a few events each. */
export const EVENTS_PER_CLUSTER = 64;

/** Where the rollouts find a cluster's events: this replica's, or all replicas' merged (./merged-events.ts). */
export interface EventLookup {
  /** The cluster's events in the order received, or undefined when none is kept. */
  of(clusterId: string): readonly ReceivedEvent[] | undefined;
}

export const NO_EVENTS: EventLookup = Object.freeze({ of: () => undefined });

interface Kept {
  clusterId: string;
  event: ReceivedEvent;
  key: string;
  bytes: number;
}

export type KeepOutcome = 'kept' | 'duplicate';

export class ClusterEvents implements EventLookup {
  readonly #maxBytes: number;
  readonly #byCluster = new Map<string, Kept[]>();
  /** Every kept event, oldest first (a Set keeps its insertion order): what goes first past the byte bound. */
  readonly #all = new Set<Kept>();
  #bytes = 0;
  #lastKeptAt = 0;

  constructor(maxBytes: number, source?: PublicationSource) {
    this.#maxBytes = maxBytes;
    source?.onPublish((next) => this.prune(next.snapshot));
  }

  /** Keeps `event` of `clusterId`, received at `at`; a duplicate of one kept is not kept again. */
  keep(clusterId: string, event: FluxEvent, at: number): KeepOutcome {
    const key = eventKey(event);
    let list = this.#byCluster.get(clusterId);
    if (list?.some((k) => k.key === key)) return 'duplicate';
    if (list === undefined) this.#byCluster.set(clusterId, (list = []));
    const kept: Kept = {
      clusterId,
      event: Object.freeze({ ...event, receivedAt: at }),
      key,
      bytes: eventBytes(event) + 2 * key.length,
    };
    list.push(kept);
    this.#all.add(kept);
    this.#bytes += kept.bytes;
    this.#lastKeptAt = Math.max(this.#lastKeptAt, at);
    if (list.length > EVENTS_PER_CLUSTER) this.#drop(list[0]);
    while (this.#bytes > this.#maxBytes && this.#all.size > 1) this.#drop(this.#all.values().next().value!);
    return 'kept';
  }

  of(clusterId: string): readonly ReceivedEvent[] | undefined {
    return this.#byCluster.get(clusterId)?.map((k) => k.event);
  }

  /** Every cluster's events, for the other replicas. */
  *entries(): Generator<[string, readonly ReceivedEvent[]]> {
    for (const [clusterId, list] of this.#byCluster) yield [clusterId, list.map((k) => k.event)];
  }

  /** Events kept, and about what they hold in memory. */
  get size(): number {
    return this.#all.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** When the last event was kept (ms since the epoch), 0 before the first. */
  get lastKeptAt(): number {
    return this.#lastKeptAt;
  }

  /** Forgets the events of clusters `snapshot` does not hold (removed from the fleet). */
  prune(snapshot: Snapshot): void {
    for (const [clusterId, list] of this.#byCluster) {
      if (!snapshot.clusters.has(clusterId)) for (const kept of [...list]) this.#drop(kept);
    }
  }

  #drop(kept: Kept): void {
    const list = this.#byCluster.get(kept.clusterId)!;
    const at = list.indexOf(kept);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.#byCluster.delete(kept.clusterId);
    this.#all.delete(kept);
    this.#bytes -= kept.bytes;
  }
}
