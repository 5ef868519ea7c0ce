// Every rule of the service, in one module. The server's load path, the `validate` tool and
// REST writes all check with these functions, so what one accepts the others accept too.
//
//   rule (problem code)                                   file
//   record file: yaml_syntax, not_a_mapping, empty_file,   ../repo-layout/record-file-parse.ts
//     nested_record_file, id_mismatch, ignored_file
//   schema: unknown_field, missing_field, wrong_type,      record-schema.ts (+ schemas/*.json)
//     invalid_value, invalid_key
//   duplicate_id, duplicate_cluster_dns,                  uniqueness.ts (checked while a
//     duplicate_reference                                   snapshot is built: ../snapshot.ts)
//   dangling_reference, stray_patch                       references.ts
//   unknown_dependency, self_dependency,                  catalog.ts
//     dependency_cycle, unused_catalog_entry
//   response_too_large, too_many_inputs                   response-size.ts
//
// Severity is decided here, except for dangling references: whether one blocks publication
// depends on the revision served before (../judge.ts).
import type { Problem } from '../problem.ts';
import type { AnyRecord, Cluster, Collection, PlatformComponent } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';
import { cycleProblems, dependencyProblems, unusedEntries } from './catalog.ts';
import { danglingReferences, referencingClusters, strayPatches } from './references.ts';
import { responseSizeProblems, responsesGrownTooLarge } from './response-size.ts';

export { validateRecord, canonicalize } from './record-schema.ts';

/** The problems of one cluster against the rest of the revision. */
export function checkCluster(snapshot: Snapshot, cluster: Cluster): Problem[] {
  return [...danglingReferences(snapshot, cluster), ...strayPatches(cluster), ...responseSizeProblems(snapshot, cluster)];
}

/** Every rule across records, on a whole revision (the rules of single records ran when it was loaded). */
export function checkRevision(snapshot: Snapshot): Problem[] {
  const problems: Problem[] = [];
  for (const cluster of snapshot.clusters.values()) problems.push(...checkCluster(snapshot, cluster));
  for (const entry of snapshot.platform_components.values()) problems.push(...dependencyProblems(snapshot, entry));
  problems.push(...cycleProblems(snapshot), ...unusedEntries(snapshot));
  return problems;
}

/**
 * The rules a change of one record can break, on the revision after it. Other clusters are
 * not re-checked: a write of one record cannot change their answers, except through a
 * definition they use, whose growth is checked against each of them.
 */
export function checkRecordChange(before: Snapshot, after: Snapshot, collection: Collection, record: AnyRecord): Problem[] {
  switch (collection) {
    case 'clusters':
      return checkCluster(after, record as Cluster);
    case 'platform_components':
      return [
        ...dependencyProblems(after, record as PlatformComponent),
        ...cycleProblems(after, record.id),
        ...responsesGrownTooLarge(before, after, collection, record.id, referencingClusters(after, collection, record.id)),
      ];
    case 'namespaces':
    case 'rolebindings':
      return responsesGrownTooLarge(before, after, collection, record.id, referencingClusters(after, collection, record.id));
  }
}
