// Rules: one record per id in each collection, one cluster per DNS name, and each reference
// listed once per cluster. A read answer that broke these would be ambiguous, or refused by
// the consumer (duplicate input ids), so snapshot building checks them (domain/snapshot.ts).
import { type Problem, problem } from '../problem.ts';
import type { Cluster, Collection } from '../records.ts';

export const REFERENCE_FIELDS = ['platform_components', 'namespaces', 'rolebindings'] as const;
export type ReferenceField = (typeof REFERENCE_FIELDS)[number];

export function duplicateId(collection: Collection, id: string): Problem {
  return problem(
    'duplicate_id',
    { record: { collection, id }, field: '' },
    `${collection} id "${id}" is defined twice`,
  );
}

export function duplicateClusterDns(cluster: Cluster, other: Cluster): Problem {
  return problem(
    'duplicate_cluster_dns',
    { record: { collection: 'clusters', id: cluster.id }, field: '/cluster_dns' },
    `cluster_dns "${cluster.cluster_dns}" is already used by cluster "${other.id}"`,
    { refersTo: { collection: 'clusters', id: other.id } },
  );
}

export function duplicateReferences(cluster: Cluster): Problem[] {
  const problems: Problem[] = [];
  for (const field of REFERENCE_FIELDS) {
    const seen = new Set<string>();
    cluster[field].forEach((ref, index) => {
      if (seen.has(ref.id)) {
        problems.push(
          problem(
            'duplicate_reference',
            { record: { collection: 'clusters', id: cluster.id }, field: `/${field}/${index}/id` },
            `"${ref.id}" is listed twice in ${field} of cluster "${cluster.id}"`,
          ),
        );
      }
      seen.add(ref.id);
    });
  }
  return problems;
}
