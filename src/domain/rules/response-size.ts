// Rules on what a cluster would be served: no answer over the consumer's 900 KiB limit (it
// would fail there), and a warning for a list longer than the consumer keeps by default.
import { MAX_RESPONSE_BYTES, PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../projections/index.ts';
import { type Problem, problem } from '../problem.ts';
import type { AnyRecord, Cluster, Collection } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';

/** The consumer's default `spec.filter.limit`: items past it are silently dropped. */
export const CONSUMER_DEFAULT_LIMIT = 100;

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

/** The read endpoint whose answer a definition of each collection appears in. */
export const ENDPOINT_OF = { platform_components: 'platform-components', namespaces: 'namespaces', rolebindings: 'rolebindings' } as const;

export function responseBytes(snapshot: Snapshot, cluster: Cluster, endpoint: PerClusterEndpoint): number {
  return Buffer.byteLength(JSON.stringify({ inputs: PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster) }));
}

function tooLarge(clusterId: string, endpoint: PerClusterEndpoint, bytes: number): Problem {
  return problem(
    'response_too_large',
    { record: { collection: 'clusters', id: clusterId }, field: '' },
    `its ${endpoint} response would be ${bytes} bytes, over the consumer's 900 KiB limit (${MAX_RESPONSE_BYTES} bytes)`,
  );
}

/** Errors for responses over 900 KiB, warnings for lists the consumer would cut at its default limit. */
export function responseSizeProblems(snapshot: Snapshot, cluster: Cluster): Problem[] {
  const problems: Problem[] = [];
  for (const endpoint of ENDPOINTS) {
    const inputs = PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster);
    const bytes = Buffer.byteLength(JSON.stringify({ inputs }));
    if (bytes >= MAX_RESPONSE_BYTES) problems.push(tooLarge(cluster.id, endpoint, bytes));
    if (inputs.length > CONSUMER_DEFAULT_LIMIT) {
      problems.push({
        ...problem(
          'too_many_inputs',
          { record: { collection: 'clusters', id: cluster.id }, field: '' },
          `its ${endpoint} response has ${inputs.length} inputs; the consumer keeps only ${CONSUMER_DEFAULT_LIMIT} unless its ResourceSetInputProvider raises spec.filter.limit`,
        ),
        severity: 'warning',
      });
    }
  }
  return problems;
}

/**
 * Responses of the clusters that use a changed definition and would go over the limit
 * because of the change (a cluster already over it is not blamed on this change). A
 * definition that did not grow cannot push anyone over, so most writes skip the scan; and a
 * cluster whose answer cannot come near the limit (by a cheap upper bound) is not merged.
 */
export function responsesGrownTooLarge(
  before: Snapshot,
  after: Snapshot,
  collection: Exclude<Collection, 'clusters'>,
  id: string,
  users: readonly string[],
): Problem[] {
  const old = before[collection].get(id);
  const now = after[collection].get(id);
  if (!old || !now || JSON.stringify(now).length <= JSON.stringify(old).length) return [];
  const endpoint = ENDPOINT_OF[collection];
  const bound = responseSizeBound(after, collection);
  const problems: Problem[] = [];
  for (const clusterId of users) {
    const cluster = after.clusters.get(clusterId)!;
    if (bound(cluster) < MAX_RESPONSE_BYTES) continue;
    const bytes = responseBytes(after, cluster, endpoint);
    const previous = before.clusters.get(clusterId);
    if (bytes < MAX_RESPONSE_BYTES || (previous && responseBytes(before, previous, endpoint) >= MAX_RESPONSE_BYTES)) continue;
    problems.push({ ...tooLarge(clusterId, endpoint, bytes), refersTo: { collection, id } });
  }
  return problems;
}

/**
 * An upper bound of the bytes of a cluster's answer on the endpoint a collection feeds,
 * without merging: each item holds at most its definition, the cluster's reference (with its
 * overrides), the cluster block and the keys around them; the patches appear once in all.
 * Strings are counted at 6 bytes per UTF-16 unit, JSON's worst case ("\u001f"), so no
 * serializing is needed per cluster.
 */
export function responseSizeBound(snapshot: Snapshot, collection: Exclude<Collection, 'clusters'>): (cluster: Cluster) => number {
  const definitions = new Map<string, number>();
  for (const [key, record] of snapshot[collection] as ReadonlyMap<string, AnyRecord>) {
    definitions.set(key, Buffer.byteLength(JSON.stringify(record)));
  }
  const text = (value: string | null | undefined) => (value == null ? 4 : 6 * value.length + 2);
  const KEYS_PER_ITEM = 192; // the reference's and the item's own keys, "cluster", "source", braces and commas
  return (cluster) => {
    const block = text(cluster.cluster_name) + text(cluster.cluster_dns) + text(cluster.environment);
    let total = 16;
    if (collection === 'platform_components') {
      for (const [component, values] of Object.entries(cluster.patches)) {
        total += text(component) + 4;
        for (const [key, value] of Object.entries(values)) total += text(key) + text(value) + 2;
      }
    }
    for (const ref of cluster[collection] as { id: string; oci_tag?: string | null; component_path?: string | null }[]) {
      total += (definitions.get(ref.id) ?? 0) + text(ref.id) + text(ref.oci_tag) + text(ref.component_path) + block + KEYS_PER_ITEM;
    }
    return total;
  };
}
