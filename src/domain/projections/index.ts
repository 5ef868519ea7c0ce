// The read endpoints and how each turns a snapshot into an inputs document. The HTTP layer,
// the response cache and the command-line preview all go through this one table.
import { namespaceInputs } from './namespaces.ts';
import { platformComponentInputs } from './platform-components.ts';
import { roleBindingInputs } from './rolebindings.ts';
import type { Cluster } from '../records.ts';
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

export function perClusterInputs(snapshot: Snapshot, cluster: Cluster, endpoint: PerClusterEndpoint): { id: string }[] {
  return PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster);
}

export { clusterSummaryInputs, type FleetListFilter, MAX_SHARDS, shardOf } from './clusters-list.ts';

/** The consumer reads at most 900 KiB of decoded body; a larger answer would fail there. */
export const MAX_RESPONSE_BYTES = 900 * 1024;
