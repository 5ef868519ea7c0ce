// Every rule of the service, in one module. The server's load path, the `validate` tool and
// REST writes all check with these functions, so what one accepts the others accept too.
//
//   rule (problem code)                                   file
//   not_regular_file, file_too_large                      the loaders (src/store/record-files/,
//                                                           src/store/git/commit-files.ts)
//   record file: yaml_syntax, not_a_mapping, empty_file,   ../repo-layout/record-file-parse.ts
//     nested_record_file, id_mismatch, ignored_file
//   schema: unknown_field, missing_field, wrong_type,      record-schema.ts (+ schemas/*.json:
//     invalid_value, invalid_key                            ids, Kubernetes keys, ConfigMap keys)
//   duplicate_id, duplicate_cluster_dns,                  uniqueness.ts (checked while a
//     duplicate_reference                                   snapshot is built: ../snapshot.ts)
//   dangling_reference, stray_patch                       references.ts
//   unknown_dependency, self_dependency,                  catalog.ts
//     dependency_cycle, unused_catalog_entry
//   response_too_large, response_near_limit,              response-size.ts (a write of rollouts: the
//     too_many_inputs                                       answers it serves otherwise)
//   fleet_list_large                                      fleet-list-size.ts
//   component_id_not_dns_label                            names.ts
//   oci_url_scheme (an error only where a change brings     oci-url.ts
//     it in: ../judge.ts, the writes' ratchet)
//   id_case_clash, reserved_file_name                     portable-ids.ts (warnings on a
//                                                           revision; a create refuses them)
//   shrink_guard                                          ../judge.ts (a revision against the
//                                                           one served before it)
//   a rollout on its own: invalid_duration,               ../rollouts/rollout-normalize.ts
//     duplicate_wave_name, unknown_approved_wave
//   a rollout in its revision: dangling_reference (its    ../rollouts/rollout-rules.ts
//     component), set_unchanged, duplicate_rollout,         (checkRollouts; a write of a
//     released_out_of_range; warnings empty_wave,            rollout, of a catalog entry or of
//     wave_cluster_not_member, members_in_no_wave,          a cluster: checkRolloutsAround)
//     reports_need_rollout_id
//   credential_generation_lowered,                        ../credential-generations.ts (the
//     credential_generation_reused                          same; writes: ../writes/write-rules.ts)
//
// Severity is decided here, except where it depends on the revision served before: a
// dangling reference that revision already had is a warning (../judge.ts).
import type { Problem } from '../problem.ts';
import type { AnyRecord, Cluster, Collection, PlatformComponent, Rollout } from '../records.ts';
import { checkRollouts, checkRolloutsOfComponent } from '../rollouts/rollout-rules.ts';
import { membersServedOtherwise } from '../rollouts/rollout-view.ts';
import type { Snapshot } from '../snapshot.ts';
import { cycleProblems, dependencyProblems, unusedEntries } from './catalog.ts';
import { analyzeCluster } from './cluster-analysis.ts';
import { analyzeFleet, analyzeFleetInSteps } from './fleet-analysis.ts';
import { componentIdsNotDnsLabels } from './names.ts';
import { ociUrlProblem, ociUrlProblems } from './oci-url.ts';
import { idsNotPortable } from './portable-ids.ts';
import { fleetListProblems } from './fleet-list-size.ts';
import { responsesGrownTooLarge } from './response-size.ts';

export { validateRecord, canonicalize } from './record-schema.ts';
export { analyzeCluster, analyzeFleet, analyzeFleetInSteps };

/** The problems of one cluster against the rest of the revision. */
export function checkCluster(snapshot: Snapshot, cluster: Cluster): Problem[] {
  return [...analyzeCluster(snapshot, cluster).problems];
}

/** Every rule across records, on a whole revision (the rules of single records ran when it was loaded). */
export function checkRevision(snapshot: Snapshot): Problem[] {
  const problems: Problem[] = [];
  for (const problem of analyzeFleet(snapshot).problems) problems.push(problem);
  for (const entry of snapshot.platform_components.values()) problems.push(...dependencyProblems(snapshot, entry));
  problems.push(
    ...cycleProblems(snapshot),
    ...unusedEntries(snapshot),
    ...componentIdsNotDnsLabels(snapshot),
    ...ociUrlProblems(snapshot),
    ...idsNotPortable(snapshot),
    ...fleetListProblems(snapshot),
    ...checkRollouts(snapshot),
  );
  return problems;
}

/**
 * The rules a change of one record can break, on the revision after it. Other clusters are
 * not re-checked: a write of one record cannot change their answers, except through a
 * definition they use, whose growth is checked against each of them.
 */
export function checkRecordChange(
  before: Snapshot,
  after: Snapshot,
  collection: Collection,
  record: AnyRecord,
): Problem[] {
  switch (collection) {
    case 'clusters':
      return checkCluster(after, record as Cluster);
    case 'platform_components':
      return [
        ...[ociUrlProblem(record as PlatformComponent)].filter((p) => p !== undefined),
        ...dependencyProblems(after, record as PlatformComponent),
        ...cycleProblems(after, record.id),
        ...responsesGrownTooLarge(before, after, collection, record.id),
      ];
    case 'namespaces':
    case 'rolebindings':
      return responsesGrownTooLarge(before, after, collection, record.id);
    case 'rollouts':
      return [
        ...checkRolloutsOfComponent(after, (record as Rollout).component),
        ...rolloutAnswersTooLarge(before, after),
      ];
  }
}

/**
 * The answers a change of rollouts makes too large for the consumer: of the members served
 * another entry now (a release, a rollback, another `set`), each that is over the limit after
 * and was not before (as a catalog write is held to responsesGrownTooLarge).
 */
function rolloutAnswersTooLarge(before: Snapshot, after: Snapshot): Problem[] {
  if (before.rollouts === after.rollouts) return [];
  const problems: Problem[] = [];
  for (const id of membersServedOtherwise(before, after)) {
    const cluster = after.clusters.get(id);
    if (cluster === undefined) continue;
    const now = analyzeCluster(after, cluster).problems.filter((p) => p.code === 'response_too_large');
    if (now.length === 0) continue;
    const previous = before.clusters.get(id);
    const was = new Set(
      previous
        ? analyzeCluster(before, previous).problems.map((p) => p.code === 'response_too_large' && p.identity)
        : [],
    );
    problems.push(...now.filter((p) => !was.has(p.identity)));
  }
  return problems;
}

/**
 * The rules of the rollouts a change of these records (a record before and after a write,
 * either absent) can break in `snapshot`: a rollout's own and those of the other rollouts of
 * its component, the rollouts of a catalog entry, and those of the components a cluster
 * references (its membership in their waves, the number of their steps). None without rollouts.
 */
export function checkRolloutsAround(
  snapshot: Snapshot,
  collection: Collection,
  records: readonly (AnyRecord | undefined)[],
): Problem[] {
  if (snapshot.rollouts.size === 0) return [];
  const components = new Set<string>();
  for (const record of records) {
    if (record === undefined) continue;
    if (collection === 'rollouts') components.add((record as Rollout).component);
    else if (collection === 'platform_components') components.add(record.id);
    else if (collection === 'clusters')
      for (const ref of (record as Cluster).platform_components) components.add(ref.id);
  }
  const used = new Set([...snapshot.rollouts.values()].map((r) => r.component));
  return [...components].filter((c) => used.has(c)).flatMap((c) => checkRolloutsOfComponent(snapshot, c));
}
