// Rules: what a cluster refers to exists (catalog entries, namespace and rolebinding
// definitions), and its patches are for components it references. The read endpoints skip a
// reference to a missing definition, as the read contract says (docs/decisions/0016-read-contract-and-consumer.md);
// whether one is an error is for
// the judge to say (domain/judge.ts), so it is reported as one here.
import { type Problem, problem } from '../problem.ts';
import type { Cluster, DefinitionCollection } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';
import { REFERENCE_FIELDS } from './uniqueness.ts';

export function danglingReferences(snapshot: Snapshot, cluster: Cluster): Problem[] {
  const problems: Problem[] = [];
  for (const field of REFERENCE_FIELDS) {
    cluster[field].forEach((ref, index) => {
      if (snapshot[field].has(ref.id)) return;
      problems.push(
        problem(
          'dangling_reference',
          { record: { collection: 'clusters', id: cluster.id }, field: `/${field}/${index}/id` },
          `references ${field} "${ref.id}", which does not exist`,
          // The same reference in another revision, wherever it sits in the list.
          { refersTo: { collection: field, id: ref.id }, identity: `${field}:${ref.id}` },
        ),
      );
    });
  }
  return problems;
}

export function strayPatches(cluster: Cluster): Problem[] {
  const assigned = new Set(cluster.platform_components.map((ref) => ref.id));
  return Object.keys(cluster.patches)
    .filter((component) => !assigned.has(component))
    .map((component) =>
      problem(
        'stray_patch',
        {
          record: { collection: 'clusters', id: cluster.id },
          field: `/patches/${component.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        },
        `patches component "${component}", which the cluster does not reference in platform_components`,
        { identity: component },
      ),
    );
}

/** Ids of the clusters that reference a catalog entry, namespace or rolebinding definition. */
export function referencingClusters(snapshot: Snapshot, collection: DefinitionCollection, id: string): string[] {
  const ids: string[] = [];
  for (const cluster of snapshot.clusters.values()) {
    if (cluster[collection].some((ref) => ref.id === id)) ids.push(cluster.id);
  }
  return ids;
}
