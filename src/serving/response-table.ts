// The served responses (./served-response.ts) of one published revision. Each is looked up the first time it is asked
// for and kept until the revision is replaced, so a poll costs a map lookup. The bytes come
// from EncodedBodyCache, which outlives the revision: a response whose cluster and referenced
// definitions did not change keeps the bytes it had, and only its headers (which carry the
// revision) are made anew.
import { dnsKey } from '../domain/cluster-dns.ts';
import { clusterSummaryInputs, type FleetListFilter, type PerClusterEndpoint } from '../domain/projections/index.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import { EncodedBodyCache, MAX_LISTS } from './encoded-body-cache.ts';
import { forRevision, type ServedResponse } from './served-response.ts';

export class ResponseTable {
  readonly snapshot: Snapshot;
  readonly #perCluster = new Map<string, ServedResponse>();
  /** Request paths already resolved, so that a repeated poll skips parsing its path. */
  readonly #byPath = new Map<string, ServedResponse>();
  /** Fleet listings by their filter ("" for the whole fleet, "env=prod shard=0/4"). */
  readonly #lists = new Map<string, ServedResponse>();
  readonly #bodies: EncodedBodyCache;

  /** `bodies` is shared with the revisions before and after this one; by default this revision has its own. */
  constructor(snapshot: Snapshot, bodies: EncodedBodyCache = new EncodedBodyCache()) {
    this.snapshot = snapshot;
    this.#bodies = bodies;
    bodies.follow(snapshot);
  }

  get revision(): string {
    return this.snapshot.revision;
  }

  /** The response for one cluster and endpoint, or undefined when no cluster has that DNS name. */
  forCluster(endpoint: PerClusterEndpoint, clusterDns: string): ServedResponse | undefined {
    const dns = dnsKey(clusterDns);
    const key = `${endpoint} ${dns}`;
    let prepared = this.#perCluster.get(key);
    if (prepared === undefined) {
      const cluster = this.snapshot.clustersByDns.get(dns);
      if (!cluster) return undefined;
      prepared = forRevision(this.#bodies.perCluster(this.snapshot, cluster, endpoint), this.revision, {
        clusterId: cluster.id,
        endpoint,
      });
      this.#perCluster.set(key, prepared);
    }
    return prepared;
  }

  /**
   * The response for a request path seen before. Only canonical spellings (lowercase DNS, no
   * trailing dot, no percent-encoding) are remembered, so the map cannot grow past three
   * entries per cluster however clients spell their paths.
   */
  byPath(path: string): ServedResponse | undefined {
    return this.#byPath.get(path);
  }

  rememberPath(path: string, clusterDns: string, prepared: ServedResponse): void {
    if (dnsKey(clusterDns) === clusterDns && !path.includes('%')) this.#byPath.set(path, prepared);
  }

  /** The fleet listing, whole or filtered; each filter's bytes are prepared once. */
  clustersList(filter: FleetListFilter = {}): ServedResponse {
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
