// The clusters whose answers differ between two revisions, found the slow and obvious way:
// every cluster merged whole in both and compared as bytes. What the domain's cheap walk
// (changedClusterIds) and the diff must equal.
import { dnsMoved } from '../../src/domain/changed-clusters.ts';
import { PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../../src/domain/projections/index.ts';
import { compareIds, type Snapshot } from '../../src/domain/snapshot.ts';

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

export function plainChangedClusters(before: Snapshot, after: Snapshot): string[] {
  const ids = [...new Set([...before.clusters.keys(), ...after.clusters.keys()])].sort(compareIds);
  return ids.filter((id) => {
    const old = before.clusters.get(id);
    const now = after.clusters.get(id);
    if (!old || !now || dnsMoved(old, now)) return true;
    return ENDPOINTS.some(
      (e) =>
        JSON.stringify(PER_CLUSTER_ENDPOINTS[e](before, old)) !== JSON.stringify(PER_CLUSTER_ENDPOINTS[e](after, now)),
    );
  });
}
