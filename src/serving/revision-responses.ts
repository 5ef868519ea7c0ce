// The read responses of one published revision. Each is looked up the first time it is asked
// for and kept until the revision is replaced, so a poll costs a map lookup. The bytes come
// from EncodedBodies, which outlives the revision: a response whose cluster and referenced
// definitions did not change keeps the bytes it had, and only its headers (which carry the
// revision) are made anew.
import { dnsKey } from '../domain/cluster-dns.ts';
import { clusterSummaryInputs, type FleetListFilter, type PerClusterEndpoint } from '../domain/projections/index.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import { EncodedBodies, MAX_LISTS } from './encoded-bodies.ts';
import { forRevision, type PreparedResponse } from './prepared-response.ts';

export class RevisionResponses {
  readonly snapshot: Snapshot;
  readonly #perCluster = new Map<string, PreparedResponse>();
  /** Request paths already resolved, so that a repeated poll skips parsing its path. */
  readonly #byPath = new Map<string, PreparedResponse>();
  /** Fleet listings by their filter ("" for the whole fleet, "env=prod shard=0/4"). */
  readonly #lists = new Map<string, PreparedResponse>();
  readonly #bodies: EncodedBodies;

  /** `bodies` is shared with the revisions before and after this one; by default this revision has its own. */
  constructor(snapshot: Snapshot, bodies: EncodedBodies = new EncodedBodies()) {
    this.snapshot = snapshot;
    this.#bodies = bodies;
    bodies.follow(snapshot);
  }

  get revision(): string {
    return this.snapshot.revision;
  }

  /** The response for one cluster and endpoint, or undefined when no cluster has that DNS name. */
  forCluster(endpoint: PerClusterEndpoint, clusterDns: string): PreparedResponse | undefined {
    const dns = dnsKey(clusterDns);
    const key = `${endpoint} ${dns}`;
    let prepared = this.#perCluster.get(key);
    if (prepared === undefined) {
      const cluster = this.snapshot.clustersByDns.get(dns);
      if (!cluster) return undefined;
      prepared = forRevision(this.#bodies.perCluster(this.snapshot, cluster, endpoint), this.revision, { clusterId: cluster.id, endpoint });
      this.#perCluster.set(key, prepared);
    }
    return prepared;
  }

  /**
   * The response for a request path seen before. Only canonical spellings (lowercase DNS, no
   * trailing dot, no percent-encoding) are remembered, so the map cannot grow past three
   * entries per cluster however clients spell their paths.
   */
  byPath(path: string): PreparedResponse | undefined {
    return this.#byPath.get(path);
  }

  rememberPath(path: string, clusterDns: string, prepared: PreparedResponse): void {
    if (dnsKey(clusterDns) === clusterDns && !path.includes('%')) this.#byPath.set(path, prepared);
  }

  /** The fleet listing, whole or filtered; each filter's bytes are prepared once. */
  clustersList(filter: FleetListFilter = {}): PreparedResponse {
    const key = `${filter.environment ?? ''} ${filter.shard ? `${filter.shard.index}/${filter.shard.count}` : ''}`;
    let prepared = this.#lists.get(key);
    if (!prepared) {
      prepared = forRevision(
        this.#bodies.list(this.snapshot, key, () => clusterSummaryInputs(this.snapshot, filter)),
        this.revision,
      );
      if (this.#lists.size >= MAX_LISTS) this.#lists.delete(this.#lists.keys().next().value!);
      this.#lists.set(key, prepared);
    }
    return prepared;
  }
}
