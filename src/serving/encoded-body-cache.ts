// Encoded response bodies kept across revisions. A new revision usually changes a few records
// of a large fleet; every other cluster's response is the same document, so its bytes, ETag
// and gzip copy are reused instead of being encoded again on its next poll. Each body is
// remembered with what it was made from (endpointDependencies: the cluster record and the
// definitions it references, compared by identity, which snapshot updates keep for unchanged
// records), so it is used only while all of those are the same objects.
import {
  type EndpointDependencies,
  endpointDependencies,
  PER_CLUSTER_ENDPOINTS,
  type PerClusterEndpoint,
  perClusterInputs,
} from '../domain/projections/index.ts';
import type { Cluster } from '../domain/records.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import { PlainBytesBudget } from './plain-bytes-budget.ts';
import { encodeInputsDocument, type EncodedDocument } from './encoded-body.ts';

const ENDPOINT_COUNT = Object.keys(PER_CLUSTER_ENDPOINTS).length;

interface Entry {
  readonly dependencies: EndpointDependencies;
  readonly encoded: EncodedDocument;
}

/**
 * Fleet listings kept per filter. Each distinct filter (environment, shard i/n) is an entry,
 * so a client walking through shard counts could add thousands; past this many the oldest go.
 */
export const MAX_LISTS = 256;

/**
 * Plain bytes kept for clients that do not take gzip: enough for every response of about 1,500
 * clusters. The gzip copies, which the fleet's agents ask for, are all kept.
 */
export const PLAIN_BODY_BUDGET_BYTES = 16 * 1024 * 1024;

export class EncodedBodyCache {
  /** `${endpoint} ${cluster id}` -> the last body encoded for it. At most one per endpoint and cluster. */
  readonly #perCluster = new Map<string, Entry>();
  /** The clusters map the entries were last checked against (for pruning). */
  #clusters: ReadonlyMap<string, Cluster> | undefined;
  /** Fleet listings by filter key, valid for the clusters map they were made from. */
  #lists = new Map<string, EncodedDocument>();
  #listsOf: ReadonlyMap<string, Cluster> | undefined;
  readonly plainBodies: PlainBytesBudget;

  constructor(plainBudgetBytes = PLAIN_BODY_BUDGET_BYTES) {
    this.plainBodies = new PlainBytesBudget(plainBudgetBytes);
  }

  /**
   * Called when a snapshot starts being served. An entry of a cluster that changed is replaced
   * on that cluster's next request; only entries of removed clusters would stay. So the store
   * is walked (dropping entries of clusters gone or replaced) only once they may have piled
   * up past a quarter of the fleet: a REST write on a 10,000-cluster fleet, which publishes a
   * new clusters map each time, does not pay a 30,000-entry walk.
   */
  follow(snapshot: Snapshot): void {
    const clusters = snapshot.clusters;
    if (clusters === this.#clusters) return;
    this.#clusters = clusters;
    if (this.#perCluster.size <= ENDPOINT_COUNT * clusters.size + Math.floor(clusters.size / 4)) return;
    for (const [key, entry] of this.#perCluster) {
      const cluster = entry.dependencies[0];
      if (clusters.get(cluster.id) !== cluster) this.#perCluster.delete(key);
    }
  }

  /** The cluster's response body for the endpoint in `snapshot`, encoded only if it is not known yet. */
  perCluster(snapshot: Snapshot, cluster: Cluster, endpoint: PerClusterEndpoint): EncodedDocument {
    const key = `${endpoint} ${cluster.id}`;
    const dependencies = endpointDependencies(snapshot, cluster, endpoint);
    const known = this.#perCluster.get(key);
    if (known && sameObjects(known.dependencies, dependencies)) return known.encoded;
    const encoded = encodeInputsDocument(perClusterInputs(snapshot, cluster, endpoint), this.plainBodies);
    this.#perCluster.set(key, { dependencies, encoded });
    return encoded;
  }

  /** A fleet listing; kept while the clusters map is the same object (no cluster added, removed or changed). */
  list(snapshot: Snapshot, filterKey: string, make: () => unknown[]): EncodedDocument {
    if (this.#listsOf !== snapshot.clusters) {
      this.#lists = new Map();
      this.#listsOf = snapshot.clusters;
    }
    let encoded = this.#lists.get(filterKey);
    if (!encoded) {
      encoded = encodeInputsDocument(make(), this.plainBodies);
      if (this.#lists.size >= MAX_LISTS) this.#lists.delete(this.#lists.keys().next().value!);
      this.#lists.set(filterKey, encoded);
    }
    return encoded;
  }

  /** The body kept for a cluster (by id) and endpoint, whatever revision it was made in. */
  kept(endpoint: PerClusterEndpoint, clusterId: string): EncodedDocument | undefined {
    return this.#perCluster.get(`${endpoint} ${clusterId}`)?.encoded;
  }

  /** Per-cluster bodies kept. */
  get size(): number {
    return this.#perCluster.size;
  }
}

function sameObjects(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
