// GET /api/v2/gitops/clusters/{cluster_dns}/rolebindings
import type { RoleBindingInput } from './inputs.ts';
import type { Cluster } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';
import { clusterBlock } from './cluster-block.ts';

/** Each rolebinding id of the cluster resolved to its definition; ids with no definition are skipped. */
export function roleBindingInputs(snapshot: Snapshot, cluster: Cluster): RoleBindingInput[] {
  const block = clusterBlock(cluster);
  return cluster.rolebindings.flatMap(({ id }) => {
    const def = snapshot.rolebindings.get(id);
    if (!def) return [];
    return [
      {
        id: def.id,
        role: def.role,
        subjects: def.subjects.map((s) => ({ kind: s.kind, name: s.name, apiGroup: s.apiGroup })),
        cluster: { ...block },
      },
    ];
  });
}
