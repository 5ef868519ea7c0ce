// Everything the rules say about one cluster against the rest of a revision: its dangling
// references, stray patches, response sizes, and how many inputs each endpoint gives it.
// Remembered per cluster record and the definitions it refers to (records are immutable and
// shared between revisions that did not change them; a catalog entry as the cluster is served
// it, with a rollout's set applied where released), so judging a revision costs work only for
// the clusters a change touched.
import type { Problem } from '../problem.ts';
import type { AnyRecord, Cluster } from '../records.ts';
import { effectiveComponent, rolloutView } from '../rollouts/rollout-view.ts';
import type { Snapshot } from '../snapshot.ts';
import { danglingReferences, strayPatches } from './references.ts';
import { responseSizeProblems } from './response-size.ts';
import { REFERENCE_FIELDS } from './uniqueness.ts';

export interface ClusterAnalysis {
  /** Inputs on [platform-components, namespaces, rolebindings]. */
  counts: readonly [number, number, number];
  problems: readonly Problem[];
}

interface Remembered {
  /** The definition maps and rollouts it was made against: the same maps, the same answer (they are immutable). */
  maps: readonly [unknown, unknown, unknown, unknown];
  deps: (AnyRecord | undefined)[];
  analysis: ClusterAnalysis;
}

const remembered = new WeakMap<Cluster, Remembered>();

export function analyzeCluster(snapshot: Snapshot, cluster: Cluster): ClusterAnalysis {
  const maps = [snapshot.platform_components, snapshot.namespaces, snapshot.rolebindings, snapshot.rollouts] as const;
  const known = remembered.get(cluster);
  if (known && known.maps.every((map, i) => map === maps[i])) return known.analysis;
  const deps: (AnyRecord | undefined)[] = [];
  const view = rolloutView(snapshot);
  for (const ref of cluster.platform_components) {
    const entry = snapshot.platform_components.get(ref.id);
    deps.push(entry === undefined ? undefined : effectiveComponent(view, cluster, ref, entry));
  }
  for (const field of REFERENCE_FIELDS) {
    if (field === 'platform_components') continue;
    for (const ref of cluster[field]) deps.push((snapshot[field] as ReadonlyMap<string, AnyRecord>).get(ref.id));
  }
  if (known && known.deps.length === deps.length && known.deps.every((d, i) => d === deps[i])) {
    remembered.set(cluster, { ...known, maps });
    return known.analysis;
  }

  const counts = REFERENCE_FIELDS.map(
    (field) => cluster[field].filter((ref) => snapshot[field].has(ref.id)).length,
  ) as [number, number, number];
  const problems = [
    ...danglingReferences(snapshot, cluster),
    ...strayPatches(cluster),
    ...responseSizeProblems(snapshot, cluster, counts),
  ];
  const analysis = { counts, problems };
  remembered.set(cluster, { maps, deps, analysis });
  return analysis;
}
