// What a change does to the fleet: between two revisions, per cluster and endpoint, the
// inputs added, removed and changed (old → new), the clusters listing, a summary, and how the
// judge (./judge.ts) decides on the newer one served after the older one. One report, one
// shape (./diff-report.ts): `gitops-config diff` prints it, the preview of a change set answers with it.
import type { Judgement } from './judge.ts';
import {
  type AnswerChange,
  answerChange,
  clustersWritten,
  type DefinitionChanges,
  definitionChanges,
  dnsMoved,
  ENDPOINT_NAMES,
  partOfAnswer,
  plansMayMove,
} from './changed-clusters.ts';
import type { ClusterDiff, DiffReport, EndpointDiff, RevisionInfo } from './diff-report.ts';
import { diffInputLists, reordered, sameJson } from './input-diff.ts';
import type { Problem } from './problem.ts';
import {
  ENDPOINT_DEFINITIONS,
  MAX_RESPONSE_BYTES,
  PER_CLUSTER_ENDPOINTS,
  type PerClusterEndpoint,
} from './projections/index.ts';
import type { Cluster } from './records.ts';
import { responseBound } from './rules/response-size.ts';
import { rolloutPlanChanges } from './rollouts/rollout-plan-changes.ts';
import type { ClusterSummaryInput } from './projections/inputs.ts';
import { compareIds, type Snapshot } from './snapshot.ts';
import { runSteps, type Steps } from './steps.ts';

/** The two revisions as a report names them, and the judgement of the head against the base. */
export interface JudgedChange {
  base: { label: string; commit: string | null; problems: Problem[] };
  head: { label: string; commit: string | null };
  judgement: Judgement;
}

/** The report of a change from `before` to `after`, judged as `judged` says. */
export function revisionDiff(before: Snapshot, after: Snapshot, judged: JudgedChange): DiffReport {
  return runSteps(revisionDiffInSteps(before, after, judged));
}

/** revisionDiff in steps (diffSnapshotsInSteps's). */
export function* revisionDiffInSteps(before: Snapshot, after: Snapshot, judged: JudgedChange): Steps<DiffReport> {
  const { judgement } = judged;
  const { clusters, listing, rollouts, summary } = yield* diffSnapshotsInSteps(before, after);
  return {
    publishable: judgement.publish,
    problems: judgement.problems,
    guard: judgement.guard ?? null,
    base: judged.base,
    head: { ...judged.head, problems: judgement.blocking },
    verdict: { publish: judgement.publish, problems: judgement.blocking },
    clusters,
    listing,
    rollouts,
    summary,
  };
}

/** The changes alone, not judged (publishable, no problems, no guard). */
export function diffSnapshots(before: Snapshot, after: Snapshot): DiffReport {
  return runSteps(diffSnapshotsInSteps(before, after));
}

/** How many clusters diffSnapshotsInSteps looks at between two pauses; it pauses after each it compares too. */
const LOOKED_PER_STEP = 1000;

/**
 * diffSnapshots in steps. When `after` was made from `before` by writes to clusters (the maps
 * share their base), only the clusters written can differ, and the maps name them without a
 * walk of the fleet (a change set's preview); otherwise every cluster is looked at.
 */
export function* diffSnapshotsInSteps(before: Snapshot, after: Snapshot): Steps<DiffReport> {
  // A rollout's release changes answers as a catalog change does: it is a definition too.
  const sameDefinitions =
    before.platform_components === after.platform_components &&
    before.namespaces === after.namespaces &&
    before.rolebindings === after.rolebindings &&
    before.rollouts === after.rollouts;
  const written = sameDefinitions ? clustersWritten(before, after) : undefined;
  // A record that did not change is diffed only when its definitions or a rollout's plan did.
  const unchangedSame = sameDefinitions && !plansMayMove(before, after);
  // Which definitions are other objects, worked out once: each cluster looks up only its references to those.
  const changes = definitionChanges(before, after);
  const ids = written ? [...written].sort(compareIds) : yield* allClusterIds(before, after);
  const clusters: ClusterDiff[] = [];
  // The listing is made of the cluster records alone: only a cluster whose record changed can change it.
  const listed: { before: ClusterSummaryInput[]; after: ClusterSummaryInput[] } = { before: [], after: [] };
  for (const [n, id] of ids.entries()) {
    const old = before.clusters.get(id);
    const now = after.clusters.get(id);
    if (old !== now) {
      listed.before.push(...summaryOf(old));
      listed.after.push(...summaryOf(now));
    }
    if (old !== now || !unchangedSame) {
      const diff = diffCluster(before, after, old, now, changes);
      if (diff) clusters.push(diff);
      yield;
    }
    if ((n + 1) % LOOKED_PER_STEP === 0) yield;
  }
  const listing = diffInputLists(listed.before, listed.after);
  // A new rollout's plan walks the fleet once (kept for the judge's and the server's use after).
  const rollouts = rolloutPlanChanges(before, after);
  yield;
  const summary: DiffReport['summary'] = {
    clusters_before: before.clusters.size,
    clusters_after: after.clusters.size,
    clusters_total: written ? before.clusters.size + ids.filter((id) => !before.clusters.has(id)).length : ids.length,
    clusters_changed: clusters.length,
    by_environment: {},
    inputs_added: 0,
    inputs_removed: 0,
    inputs_changed: 0,
    emptied: [],
    clusters_removed: clusters.filter((c) => c.status === 'removed').map((c) => c.id),
    clusters_added: clusters.filter((c) => c.status === 'added').map((c) => c.id),
    dns_changes: clusters
      .filter((c) => c.previous_cluster_dns !== undefined)
      .map((c) => ({ cluster: c.id, from: c.previous_cluster_dns!, to: c.cluster_dns })),
    oversized: [],
  };
  for (const cluster of clusters) {
    summary.by_environment[cluster.environment] = (summary.by_environment[cluster.environment] ?? 0) + 1;
    for (const e of cluster.endpoints) {
      summary.inputs_added += e.added.length;
      summary.inputs_removed += e.removed.length;
      summary.inputs_changed += e.changed.length;
      if (e.emptied) summary.emptied.push({ cluster: cluster.id, endpoint: e.endpoint, before: e.before ?? 0 });
      if (e.oversized) summary.oversized.push({ cluster: cluster.id, endpoint: e.endpoint });
    }
  }
  const none: RevisionInfo = { label: '', commit: null, problems: [] };
  return {
    publishable: true,
    problems: [],
    guard: null,
    base: none,
    head: none,
    verdict: { publish: true, problems: [] },
    clusters,
    listing,
    rollouts,
    summary,
  };
}

/** Every cluster id of either revision, in id order: both maps iterate in it, so they are merged, not sorted. */
function* allClusterIds(before: Snapshot, after: Snapshot): Steps<string[]> {
  const ids: string[] = [];
  const a = [...before.clusters.keys()];
  yield;
  const b = [...after.clusters.keys()];
  yield;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const order = i === a.length ? 1 : j === b.length ? -1 : compareIds(a[i], b[j]);
    if (order <= 0) i++;
    if (order >= 0) j++;
    ids.push(order < 0 ? a[i - 1] : b[j - 1]);
    if (ids.length % (10 * LOOKED_PER_STEP) === 0) yield;
  }
  return ids;
}

/** A cluster's item in the fleet listing (as clusterSummaryInputs makes it), or none. */
function summaryOf(cluster: Cluster | undefined): ClusterSummaryInput[] {
  if (!cluster) return [];
  const { id, cluster_name, cluster_dns, environment } = cluster;
  return [{ id, cluster_name, cluster_dns, environment }];
}

/** The new answer is over 900 KiB: measured only when the cheap bound of its size says it may be. */
function oversized(
  after: Snapshot,
  cluster: Cluster,
  endpoint: PerClusterEndpoint,
  inputs: () => { id: string }[],
): boolean {
  if (responseBound(after, cluster, endpoint) < MAX_RESPONSE_BYTES) return false;
  return Buffer.byteLength(JSON.stringify({ inputs: inputs() })) >= MAX_RESPONSE_BYTES;
}

function diffCluster(
  before: Snapshot,
  after: Snapshot,
  old: Cluster | undefined,
  now: Cluster | undefined,
  changes: DefinitionChanges,
): ClusterDiff | undefined {
  const cluster = (now ?? old)!;
  const endpoints: EndpointDiff[] = [];
  for (const endpoint of ENDPOINT_NAMES) {
    const change: AnswerChange =
      old && now ? answerChange(before, after, old, now, endpoint, changes) : { kind: 'whole' };
    if (change.kind === 'same') continue;
    const diff =
      change.kind === 'inputs'
        ? diffInputsOf(before, after, now!, endpoint, change.references)
        : diffAnswers(before, after, old, now, endpoint);
    if (diff) endpoints.push(diff);
  }
  const dnsChanged = dnsMoved(old, now);
  if (endpoints.length === 0 && !dnsChanged) return undefined;
  return {
    id: cluster.id,
    status: !old ? 'added' : !now ? 'removed' : 'changed',
    environment: cluster.environment,
    cluster_dns: cluster.cluster_dns,
    ...(dnsChanged ? { previous_cluster_dns: old!.cluster_dns } : {}),
    ...(old && now && old.environment !== now.environment ? { previous_environment: old.environment } : {}),
    endpoints,
  };
}

/** The same inputs on both sides, some of them merged from other definitions: only those can differ. */
function diffInputsOf(
  before: Snapshot,
  after: Snapshot,
  cluster: Cluster,
  endpoint: PerClusterEndpoint,
  references: Extract<AnswerChange, { kind: 'inputs' }>['references'],
): EndpointDiff | undefined {
  const oldPart = partOfAnswer(before, cluster, endpoint, references);
  const newPart = partOfAnswer(after, cluster, endpoint, references);
  if (sameJson(oldPart, newPart)) return undefined;
  // Every reference resolves on both sides or on neither: the counts are the same.
  const definitions: ReadonlyMap<string, unknown> = after[ENDPOINT_DEFINITIONS[endpoint]];
  const count = cluster[ENDPOINT_DEFINITIONS[endpoint]].filter((ref) => definitions.has(ref.id)).length;
  return {
    endpoint,
    before: count,
    after: count,
    ...diffInputLists(oldPart, newPart),
    reordered: false,
    emptied: false,
    oversized: oversized(after, cluster, endpoint, () => PER_CLUSTER_ENDPOINTS[endpoint](after, cluster)),
  };
}

/** Both answers merged whole (a cluster added, removed or changed itself, or a definition that appeared or went). */
function diffAnswers(
  before: Snapshot,
  after: Snapshot,
  old: Cluster | undefined,
  now: Cluster | undefined,
  endpoint: PerClusterEndpoint,
): EndpointDiff | undefined {
  const oldInputs = old ? PER_CLUSTER_ENDPOINTS[endpoint](before, old) : undefined;
  const newInputs = now ? PER_CLUSTER_ENDPOINTS[endpoint](after, now) : undefined;
  if (oldInputs === undefined ? newInputs === undefined : newInputs !== undefined && sameJson(oldInputs, newInputs))
    return undefined;
  // A removed cluster's endpoints answer 404: the consumer keeps its inputs, nothing is "removed".
  const lists = newInputs ? diffInputLists(oldInputs ?? [], newInputs) : { added: [], removed: [], changed: [] };
  return {
    endpoint,
    before: oldInputs ? oldInputs.length : null,
    after: newInputs ? newInputs.length : null,
    ...lists,
    reordered: oldInputs !== undefined && newInputs !== undefined && reordered(oldInputs, newInputs),
    emptied: oldInputs !== undefined && newInputs !== undefined && oldInputs.length > 0 && newInputs.length === 0,
    oversized: now !== undefined && oversized(after, now, endpoint, () => newInputs!),
  };
}
