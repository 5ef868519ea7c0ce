// Rules on what a cluster would be served: no answer over the consumer's 900 KiB limit (it
// would fail there), a warning for an answer within 10 % of it (the next change may push it
// over), a warning for a list longer than the consumer keeps by default, and a warning for a
// fleet listing close to the limit. Exact sizes need the merged answer; a cheap
// upper bound, computed from the sizes of the definitions, spares that for every cluster that
// cannot come near the limit.
import { MAX_RESPONSE_BYTES, PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../projections/index.ts';
import { type Problem, problem } from '../problem.ts';
import type { AnyRecord, Cluster, ComponentRef, DefinitionCollection, PlatformComponent } from '../records.ts';
import { effectiveComponent, type RolloutView, rolloutView } from '../rollouts/rollout-view.ts';
import type { Snapshot } from '../snapshot.ts';
import type { Steps } from '../steps.ts';

/** The consumer's default `spec.filter.limit`: items past it are silently dropped. */
export const CONSUMER_DEFAULT_LIMIT = 100;

/** The share of the limit from which an answer is warned about (response_near_limit). */
export const NEAR_LIMIT_SHARE = 0.9;

export const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

/** The read endpoint whose answer a definition of each collection appears in. */
export const ENDPOINT_OF = {
  platform_components: 'platform-components',
  namespaces: 'namespaces',
  rolebindings: 'rolebindings',
} as const;
const FIELD_OF = {
  'platform-components': 'platform_components',
  namespaces: 'namespaces',
  rolebindings: 'rolebindings',
} as const;

export function responseBytes(snapshot: Snapshot, cluster: Cluster, endpoint: PerClusterEndpoint): number {
  return Buffer.byteLength(JSON.stringify({ inputs: PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster) }));
}

const definitionSizes = new WeakMap<object, number>();

function definitionBytes(record: AnyRecord): number {
  let size = definitionSizes.get(record);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(record));
    definitionSizes.set(record, size);
  }
  return size;
}

/** JSON's worst case for a string: 6 bytes per UTF-16 unit ("\u001f") and the quotes. */
const text = (value: string | null | undefined) => (value == null ? 4 : 6 * value.length + 2);
/** The reference's and the item's own keys, "cluster", "source", braces and commas. */
const KEYS_PER_ITEM = 192;

/** The part of a cluster's bound that its record alone makes, and how many definitions it references. */
interface ClusterPart {
  own: number;
  references: number;
}

/**
 * Per endpoint, per cluster record (records are immutable): its part, kept for the check of a
 * grown definition, which looks at every cluster on each such write. The analysis of a whole
 * revision sizes each cluster once and keeps nothing.
 */
const clusterParts = {
  'platform-components': new WeakMap<Cluster, ClusterPart>(),
  namespaces: new WeakMap<Cluster, ClusterPart>(),
  rolebindings: new WeakMap<Cluster, ClusterPart>(),
} satisfies Record<PerClusterEndpoint, WeakMap<Cluster, ClusterPart>>;

function keptClusterPart(cluster: Cluster, endpoint: PerClusterEndpoint): ClusterPart {
  let part = clusterParts[endpoint].get(cluster);
  if (part === undefined) clusterParts[endpoint].set(cluster, (part = clusterPart(cluster, endpoint)));
  return part;
}

/**
 * The bytes of a cluster's answer on one endpoint that do not come from definitions: the
 * cluster's references (with their overrides), the cluster block and the keys around each
 * item; the patches appear once in all.
 */
function clusterPart(cluster: Cluster, endpoint: PerClusterEndpoint): ClusterPart {
  const field = FIELD_OF[endpoint];
  const block = text(cluster.cluster_name) + text(cluster.cluster_dns) + text(cluster.environment);
  let own = 16;
  if (field === 'platform_components') {
    for (const [component, values] of Object.entries(cluster.patches)) {
      own += text(component) + 4;
      for (const [key, value] of Object.entries(values)) own += text(key) + text(value) + 2;
    }
  }
  const refs = cluster[field] as ComponentRef[];
  for (const ref of refs) {
    own += text(ref.id) + text(ref.oci_tag) + text(ref.component_path) + block + KEYS_PER_ITEM;
  }
  return { own, references: refs.length };
}

/**
 * An upper bound of the bytes of a cluster's answer on one endpoint, without merging: each
 * item holds at most its definition besides the cluster's own part (clusterPart).
 */
export function responseBound(snapshot: Snapshot, cluster: Cluster, endpoint: PerClusterEndpoint): number {
  const field = FIELD_OF[endpoint];
  let total = clusterPart(cluster, endpoint).own;
  const view = field === 'platform_components' ? rolloutView(snapshot) : undefined;
  for (const ref of cluster[field] as ComponentRef[]) {
    const found = (snapshot[field] as ReadonlyMap<string, AnyRecord>).get(ref.id);
    // A catalog entry as this cluster is served it: a rollout's set may make it longer.
    const def = view && found ? effectiveComponent(view, cluster, ref, found as PlatformComponent) : found;
    if (def) total += definitionBytes(def);
  }
  return total;
}

/** Per definitions map: the bytes of its largest definition as any cluster may be served it (with a rollout's set). */
const largestKept = new WeakMap<object, { view: RolloutView | undefined; bytes: number }>();

function largestDefinition(snapshot: Snapshot, collection: DefinitionCollection): number {
  const definitions = snapshot[collection] as ReadonlyMap<string, AnyRecord>;
  const view = collection === 'platform_components' ? rolloutView(snapshot) : undefined;
  const kept = largestKept.get(definitions);
  if (kept !== undefined && kept.view === view) return kept.bytes;
  let bytes = 0;
  for (const definition of definitions.values()) bytes = Math.max(bytes, definitionBytes(definition));
  for (const serving of view?.byComponent.values() ?? []) bytes = Math.max(bytes, definitionBytes(serving.effective));
  largestKept.set(definitions, { view, bytes });
  return bytes;
}

/**
 * A cheaper bound of responseBound, from the cluster's own part and the largest definition
 * it could be served: below the limit, the cluster's answer is too (no definition looked up).
 */
function boundOfBound(cluster: Cluster, endpoint: PerClusterEndpoint, largest: number): number {
  const part = keptClusterPart(cluster, endpoint);
  return part.own + part.references * largest;
}

/** The bound for every cluster on the endpoint a collection feeds (kept for callers that scan a fleet). */
export function responseSizeBound(snapshot: Snapshot, collection: DefinitionCollection): (cluster: Cluster) => number {
  return (cluster) => responseBound(snapshot, cluster, ENDPOINT_OF[collection]);
}

function tooLarge(clusterId: string, endpoint: PerClusterEndpoint, bytes: number): Problem {
  return problem(
    'response_too_large',
    { record: { collection: 'clusters', id: clusterId }, field: '' },
    `its ${endpoint} response would be ${bytes} bytes, over the consumer's 900 KiB limit (${MAX_RESPONSE_BYTES} bytes)`,
    { identity: endpoint },
  );
}

function nearLimit(clusterId: string, endpoint: PerClusterEndpoint, bytes: number): Problem {
  return {
    ...problem(
      'response_near_limit',
      { record: { collection: 'clusters', id: clusterId }, field: '' },
      `its ${endpoint} response is ${bytes} bytes, ${Math.floor((100 * bytes) / MAX_RESPONSE_BYTES)}% of the ` +
        `consumer's 900 KiB limit ` +
        `(${MAX_RESPONSE_BYTES} bytes); past it the cluster gets no answer it can read`,
      { identity: endpoint },
    ),
    severity: 'warning',
  };
}

/**
 * Errors for responses over 900 KiB, warnings for responses within 10 % of it and for lists
 * the consumer would cut at its default limit.
 */
export function responseSizeProblems(snapshot: Snapshot, cluster: Cluster, counts: readonly number[]): Problem[] {
  const problems: Problem[] = [];
  ENDPOINTS.forEach((endpoint, index) => {
    if (responseBound(snapshot, cluster, endpoint) >= NEAR_LIMIT_SHARE * MAX_RESPONSE_BYTES) {
      const bytes = responseBytes(snapshot, cluster, endpoint);
      if (bytes >= MAX_RESPONSE_BYTES) problems.push(tooLarge(cluster.id, endpoint, bytes));
      else if (bytes >= NEAR_LIMIT_SHARE * MAX_RESPONSE_BYTES) problems.push(nearLimit(cluster.id, endpoint, bytes));
    }
    const count = counts[index];
    if (count > CONSUMER_DEFAULT_LIMIT) {
      problems.push({
        ...problem(
          'too_many_inputs',
          { record: { collection: 'clusters', id: cluster.id }, field: '' },
          `its ${endpoint} response has ${count} inputs; the consumer keeps only ${CONSUMER_DEFAULT_LIMIT} unless ` +
            `its ResourceSetInputProvider raises spec.filter.limit`,
          { identity: endpoint },
        ),
        severity: 'warning',
      });
    }
  });
  return problems;
}

/**
 * Responses of the clusters that use a changed definition and would go over the limit
 * because of the change (a cluster already over it is not blamed on this change). A
 * definition that did not grow cannot push anyone over, so most writes skip the scan; one
 * that grew looks at each cluster's boundOfBound first, which for almost every cluster
 * settles it without finding which definitions it references.
 */
/** Whether a written definition grew: the one change by which it can push a cluster's answer over the limit. */
export function definitionGrew(
  before: Snapshot,
  after: Snapshot,
  collection: DefinitionCollection,
  id: string,
): boolean {
  const old = before[collection].get(id);
  const now = after[collection].get(id);
  return old !== undefined && now !== undefined && definitionBytes(now) > definitionBytes(old);
}

/** How many clusters clusterPartsInSteps works out between two pauses. */
const PARTS_PER_STEP = 1000;

/**
 * Every cluster's own part for the endpoint a collection feeds, worked out ahead in steps: the
 * first check of a grown definition after a start would otherwise work out the whole fleet's
 * in one piece (some 300 ms at 50,000 clusters); later ones find them kept.
 */
export function* clusterPartsInSteps(snapshot: Snapshot, collection: DefinitionCollection): Steps<void> {
  const endpoint = ENDPOINT_OF[collection];
  let looked = 0;
  for (const cluster of snapshot.clusters.values()) {
    keptClusterPart(cluster, endpoint);
    if (++looked % PARTS_PER_STEP === 0) yield;
  }
}

export function responsesGrownTooLarge(
  before: Snapshot,
  after: Snapshot,
  collection: DefinitionCollection,
  id: string,
): Problem[] {
  if (!definitionGrew(before, after, collection, id)) return [];
  const endpoint = ENDPOINT_OF[collection];
  const largest = largestDefinition(after, collection);
  const problems: Problem[] = [];
  for (const cluster of after.clusters.values()) {
    if (boundOfBound(cluster, endpoint, largest) < MAX_RESPONSE_BYTES) continue;
    if (!cluster[collection].some((ref) => ref.id === id)) continue;
    if (responseBound(after, cluster, endpoint) < MAX_RESPONSE_BYTES) continue;
    const bytes = responseBytes(after, cluster, endpoint);
    const previous = before.clusters.get(cluster.id);
    if (bytes < MAX_RESPONSE_BYTES || (previous && responseBytes(before, previous, endpoint) >= MAX_RESPONSE_BYTES))
      continue;
    problems.push({ ...tooLarge(cluster.id, endpoint, bytes), refersTo: { collection, id } });
  }
  return problems;
}
