// GET /api/v2/gitops/clusters/{cluster_dns}/namespaces
import type { NamespaceInput } from './inputs.ts';
import type { Cluster } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';
import { clusterBlock } from './cluster-block.ts';

/** Each namespace id of the cluster resolved to its definition; ids with no definition are skipped. */
export function namespaceInputs(snapshot: Snapshot, cluster: Cluster): NamespaceInput[] {
  const block = clusterBlock(cluster);
  return cluster.namespaces.flatMap(({ id }) => {
    const def = snapshot.namespaces.get(id);
    if (!def) return [];
    return [{ id: def.id, labels: { ...def.labels }, annotations: { ...def.annotations }, cluster: { ...block } }];
  });
}
