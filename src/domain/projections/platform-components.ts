// GET /api/v2/gitops/clusters/{cluster_dns}/platform-components
// Catalog defaults merged with the cluster's per-component overrides and patches. The catalog
// entry of a cluster in a released step of a rollout is the entry with the rollout's `set`
// applied (../rollouts/rollout-view.ts); the cluster's own overrides still win over it.
import type { PlatformComponentInput } from './inputs.ts';
import type { Cluster } from '../records.ts';
import { effectiveComponent, rolloutView } from '../rollouts/rollout-view.ts';
import type { Snapshot } from '../snapshot.ts';
import { clusterBlock } from './cluster-block.ts';

export function platformComponentInputs(snapshot: Snapshot, cluster: Cluster): PlatformComponentInput[] {
  const block = clusterBlock(cluster);
  const view = rolloutView(snapshot);
  const inputs: PlatformComponentInput[] = [];
  // Rule 1: one input per reference, in the cluster's order.
  for (const ref of cluster.platform_components) {
    const catalog = snapshot.platform_components.get(ref.id);
    // A reference to a catalog entry that does not exist is skipped, like a missing
    // namespace or rolebinding definition (the validator and REST writes refuse it).
    if (!catalog) continue;
    const entry = effectiveComponent(view, cluster, ref, catalog);
    inputs.push({
      id: ref.id,
      // Rule 2: a non-null path on the reference wins over the catalog.
      component_path: ref.component_path ?? entry.component_path,
      // Rule 4: version, env flag, dependencies and URL always come from the catalog.
      component_version: entry.component_version,
      cluster_env_enabled: entry.cluster_env_enabled,
      depends_on: [...entry.depends_on],
      enabled: ref.enabled,
      // Rule 5: the cluster's patches for this component id, else {}.
      patches: { ...(cluster.patches[ref.id] ?? {}) },
      cluster: { ...block },
      source: {
        oci_url: entry.oci_url,
        // Rule 3: a non-null tag on the reference (a hotfix) wins over the catalog.
        oci_tag: ref.oci_tag ?? entry.oci_tag,
      },
    });
  }
  return inputs;
}
