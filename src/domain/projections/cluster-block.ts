import type { ClusterBlock } from './inputs.ts';
import type { Cluster } from '../records.ts';

/** The nested `cluster` object every per-cluster input carries. */
export function clusterBlock(cluster: Cluster): ClusterBlock {
  return { name: cluster.cluster_name, dns: cluster.cluster_dns, environment: cluster.environment };
}
