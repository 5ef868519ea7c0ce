// The read endpoints and how each turns a snapshot into an inputs document. The HTTP layer,
// the response cache and the command-line preview all go through this one table.
import { namespaceInputs } from './namespaces.ts';
import { platformComponentInputs } from './platform-components.ts';
import { roleBindingInputs } from './rolebindings.ts';
import type { Cluster, NamespaceDef, PlatformComponent, RoleBindingDef } from '../records.ts';
import { effectiveComponent, rolloutView } from '../rollouts/rollout-view.ts';
import type { Snapshot } from '../snapshot.ts';

export const PER_CLUSTER_ENDPOINTS = {
  'platform-components': platformComponentInputs,
  namespaces: namespaceInputs,
  rolebindings: roleBindingInputs,
} as const satisfies Record<string, (snapshot: Snapshot, cluster: Cluster) => { id: string }[]>;

export type PerClusterEndpoint = keyof typeof PER_CLUSTER_ENDPOINTS;

export function isPerClusterEndpoint(name: string): name is PerClusterEndpoint {
  return Object.hasOwn(PER_CLUSTER_ENDPOINTS, name);
}

/**
 * The collection each endpoint resolves the cluster's references of the same name in. A
 * per-cluster response depends on the cluster record and on these definitions, nothing else.
 */
export const ENDPOINT_DEFINITIONS = {
  'platform-components': 'platform_components',
  namespaces: 'namespaces',
  rolebindings: 'rolebindings',
} as const satisfies Record<PerClusterEndpoint, 'platform_components' | 'namespaces' | 'rolebindings'>;

export type EndpointDependencies = readonly [
  Cluster,
  ...(PlatformComponent | NamespaceDef | RoleBindingDef | undefined)[],
];

/**
 * What the endpoint's response for the cluster is made from: the cluster record, then the
 * definition each of its references resolves to in the snapshot, in reference order
 * (undefined for a reference with no definition, so that one appearing later counts as a
 * change). A catalog entry is the one the cluster is served: with a rollout's `set` applied
 * where its step is released (one frozen object per entry and set, kept across revisions).
 * Records are immutable, so two lists equal element by element (by identity) give the same
 * response.
 */
export function endpointDependencies(
  snapshot: Snapshot,
  cluster: Cluster,
  endpoint: PerClusterEndpoint,
): EndpointDependencies {
  if (endpoint === 'platform-components') {
    const view = rolloutView(snapshot);
    return [
      cluster,
      ...cluster.platform_components.map((ref) => {
        const entry = snapshot.platform_components.get(ref.id);
        return entry === undefined ? undefined : effectiveComponent(view, cluster, ref, entry);
      }),
    ];
  }
  const field = ENDPOINT_DEFINITIONS[endpoint];
  const definitions: ReadonlyMap<string, PlatformComponent | NamespaceDef | RoleBindingDef> = snapshot[field];
  return [cluster, ...cluster[field].map((ref) => definitions.get(ref.id))];
}

export function perClusterInputs(snapshot: Snapshot, cluster: Cluster, endpoint: PerClusterEndpoint): { id: string }[] {
  return PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster);
}

export { clusterSummaryInputs, type FleetListFilter, MAX_SHARDS, shardOf } from './clusters-list.ts';

/** The consumer reads at most 900 KiB of decoded body; a larger answer would fail there. */
export const MAX_RESPONSE_BYTES = 900 * 1024;
