// Which cluster polled which endpoint last, when, and which body it got: the memory behind the
// fleet view (GET /api/v2/gitops/fleet) and the gitops_config_fleet_clusters gauge. Every
// answered poll passes through record(), so it costs a map lookup and two stores: the time
// and a reference to the ETag string the prepared response already holds. Nothing is
// compared here; whether a poll got the current body is worked out when someone asks
// (./fleet-view.ts). Kept in memory per replica: each replica knows the polls it answered.
import type { PerClusterEndpoint } from '../domain/projections/index.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import type { ResponseSubject } from './served-response.ts';
import type { PublicationSource } from './current-responses.ts';

/**
 * A cluster's last answered poll on each endpoint: when (ms since the epoch; 0 = never) and the ETag of the body it
 * got.
 */
export class ClusterPolls {
  readonly at: Record<PerClusterEndpoint, number> = { 'platform-components': 0, namespaces: 0, rolebindings: 0 };
  readonly etag: Record<PerClusterEndpoint, string | undefined> = {
    'platform-components': undefined,
    namespaces: undefined,
    rolebindings: undefined,
  };
}

/**
 * Where the fleet view finds a cluster's last polls: this replica's registry, or it merged with the other replicas'
 * (./merged-polls.ts).
 */
export interface PollLookup {
  of(clusterId: string): ClusterPolls | undefined;
}

export class FleetPolls implements PollLookup {
  /** Cluster id -> its last polls. Only clusters of a served revision get an entry (a poll must have found them). */
  readonly #byCluster = new Map<string, ClusterPolls>();

  /** Entries of clusters no longer served are dropped once they may have piled up (see prune). */
  constructor(source: PublicationSource) {
    source.onPublish((next) => {
      if (this.#byCluster.size > next.snapshot.clusters.size + (next.snapshot.clusters.size >> 2) + 16)
        this.prune(next.snapshot);
    });
  }

  /**
   * A poll answered with the body whose ETag is `etag` (a 200, or a 304 for a client that
   * already held it), at `at` ms since the epoch. On the read path: no allocation once the
   * cluster has polled before.
   */
  record(subject: ResponseSubject, etag: string, at: number): void {
    let polls = this.#byCluster.get(subject.clusterId);
    if (polls === undefined) {
      polls = new ClusterPolls();
      this.#byCluster.set(subject.clusterId, polls);
    }
    polls.at[subject.endpoint] = at;
    polls.etag[subject.endpoint] = etag;
  }

  /** The cluster's last polls, or undefined when it has never been answered one. */
  of(clusterId: string): ClusterPolls | undefined {
    return this.#byCluster.get(clusterId);
  }

  /** Every cluster's last polls, for the other replicas' fleet views. */
  entries(): IterableIterator<[string, ClusterPolls]> {
    return this.#byCluster.entries();
  }

  /** Clusters with at least one poll recorded (some may have been removed since). */
  get size(): number {
    return this.#byCluster.size;
  }

  /**
   * Drops the entries of clusters `snapshot` does not hold. A REST write on a large fleet
   * publishes a new clusters map each time, so this walk is not made on every publication:
   * only when entries may have piled up past a quarter of the fleet, and when the fleet view
   * finds some while it walks the served clusters anyway.
   */
  prune(snapshot: Snapshot): void {
    for (const id of this.#byCluster.keys()) if (!snapshot.clusters.has(id)) this.#byCluster.delete(id);
  }
}
