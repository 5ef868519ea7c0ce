// GET /api/v2/gitops/clusters — every cluster, for provisioners, sorted by id.
import type { ClusterSummaryInput } from './inputs.ts';
import type { Snapshot } from '../snapshot.ts';

export function clusterSummaryInputs(snapshot: Snapshot): ClusterSummaryInput[] {
  // snapshot.clusters iterates in id order.
  return [...snapshot.clusters.values()].map((c) => ({
    id: c.id,
    cluster_name: c.cluster_name,
    cluster_dns: c.cluster_dns,
    environment: c.environment,
  }));
}
