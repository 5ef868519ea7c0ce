// What a change does to the fleet: between two revisions, per cluster and endpoint, the
// inputs added, removed and changed (old → new), the clusters listing, a summary, and how the
// judge (./judge.ts) decides on the newer one served after the older one. One report, one
// shape: `gitops-config diff` prints it, the preview of a change set answers with it.
import type { Judgement } from './judge.ts';
import { answerMayDiffer, answerTexts, dnsMoved, ENDPOINT_NAMES } from './changed-clusters.ts';
import { diffInputLists, type InputChange, type InputListDiff, reordered } from './input-diff.ts';
import type { Problem } from './problem.ts';
import { clusterSummaryInputs, MAX_RESPONSE_BYTES, type PerClusterEndpoint } from './projections/index.ts';
import type { Cluster } from './records.ts';
import type { ShrinkGuardVerdict } from './shrink-guard.ts';
import { compareIds, type Snapshot } from './snapshot.ts';

export type { FieldChange, InputChange } from './input-diff.ts';

export interface EndpointDiff {
  endpoint: PerClusterEndpoint;
  /** Number of inputs before and after; null where the cluster does not exist (404). */
  before: number | null;
  after: number | null;
  added: string[];
  removed: string[];
  changed: InputChange[];
  /** The same inputs come in a different order (the consumer re-renders on order changes). */
  reordered: boolean;
  /** A non-empty list becomes empty: the consumer deletes everything it rendered (decommission). */
  emptied: boolean;
  /** The new response is over 900 KiB: the server answers 500 and the consumer keeps its last inputs. */
  oversized: boolean;
}

export interface ClusterDiff {
  id: string;
  status: 'added' | 'removed' | 'changed';
  /** Head values (base values for a removed cluster). */
  environment: string;
  cluster_dns: string;
  /** Set when cluster_dns changes: the old URL starts answering 404. */
  previous_cluster_dns?: string;
  previous_environment?: string;
  /** Only the endpoints whose response changes. */
  endpoints: EndpointDiff[];
}

export type ListingDiff = InputListDiff;

export interface RevisionInfo {
  label: string;
  commit: string | null;
  /** Problems that make the server refuse this revision (empty when it loads). */
  problems: Problem[];
}

export interface DiffReport {
  /** Whether the server, serving the base, would publish the head: the same as verdict.publish. */
  publishable: boolean;
  /** Every problem of the head judged against the base, warnings included. */
  problems: Problem[];
  /** The shrink guard's verdict on the head against the base; null when nothing was judged. */
  guard: ShrinkGuardVerdict | null;
  base: RevisionInfo;
  /** The head's problems are those the judgement against the base finds (domain/judge.ts). */
  head: RevisionInfo;
  /** Whether the server, serving the base, would publish the head; its blocking problems otherwise. */
  verdict: { publish: boolean; problems: Problem[] };
  clusters: ClusterDiff[];
  /** GET /api/v2/gitops/clusters */
  listing: ListingDiff;
  summary: {
    clusters_before: number;
    clusters_after: number;
    /** Clusters in either revision. */
    clusters_total: number;
    clusters_changed: number;
    by_environment: Record<string, number>;
    inputs_added: number;
    inputs_removed: number;
    inputs_changed: number;
    /** Decommissions: endpoints whose list becomes empty. */
    emptied: { cluster: string; endpoint: PerClusterEndpoint; before: number }[];
    clusters_removed: string[];
    clusters_added: string[];
    dns_changes: { cluster: string; from: string; to: string }[];
    oversized: { cluster: string; endpoint: PerClusterEndpoint }[];
  };
}

/** The two revisions as a report names them, and the judgement of the head against the base. */
export interface JudgedChange {
  base: { label: string; commit: string | null; problems: Problem[] };
  head: { label: string; commit: string | null };
  judgement: Judgement;
}

/** The report of a change from `before` to `after`, judged as `judged` says. */
export function revisionDiff(before: Snapshot, after: Snapshot, judged: JudgedChange): DiffReport {
  const { judgement } = judged;
  const { clusters, listing, summary } = diffSnapshots(before, after);
  return {
    publishable: judgement.publish,
    problems: judgement.problems,
    guard: judgement.guard ?? null,
    base: judged.base,
    head: { ...judged.head, problems: judgement.blocking },
    verdict: { publish: judgement.publish, problems: judgement.blocking },
    clusters,
    listing,
    summary,
  };
}

/** The changes alone, not judged (publishable, no problems, no guard). */
export function diffSnapshots(before: Snapshot, after: Snapshot): DiffReport {
  const ids = new Set([...before.clusters.keys(), ...after.clusters.keys()]);
  const clusters: ClusterDiff[] = [];
  for (const id of [...ids].sort(compareIds)) {
    const diff = diffCluster(before, after, before.clusters.get(id), after.clusters.get(id));
    if (diff) clusters.push(diff);
  }
  // The listing is made of the clusters map alone.
  const listing =
    before.clusters === after.clusters ? { added: [], removed: [], changed: [] } : diffInputLists(clusterSummaryInputs(before), clusterSummaryInputs(after));
  const summary: DiffReport['summary'] = {
    clusters_before: before.clusters.size,
    clusters_after: after.clusters.size,
    clusters_total: ids.size,
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
  return { publishable: true, problems: [], guard: null, base: none, head: none, verdict: { publish: true, problems: [] }, clusters, listing, summary };
}

function diffCluster(before: Snapshot, after: Snapshot, old: Cluster | undefined, now: Cluster | undefined): ClusterDiff | undefined {
  const cluster = (now ?? old)!;
  const endpoints: EndpointDiff[] = [];
  for (const endpoint of ENDPOINT_NAMES) {
    if (old && now && !answerMayDiffer(before, after, old, now, endpoint)) continue;
    const { oldInputs, newInputs, oldJson, newJson } = answerTexts(before, after, old, now, endpoint);
    if (oldJson === newJson) continue;
    // A removed cluster's endpoints answer 404: the consumer keeps its inputs, nothing is "removed".
    const lists = newInputs ? diffInputLists(oldInputs ?? [], newInputs) : { added: [], removed: [], changed: [] };
    endpoints.push({
      endpoint,
      before: oldInputs ? oldInputs.length : null,
      after: newInputs ? newInputs.length : null,
      ...lists,
      reordered: oldInputs !== undefined && newInputs !== undefined && reordered(oldInputs, newInputs),
      emptied: oldInputs !== undefined && newInputs !== undefined && oldInputs.length > 0 && newInputs.length === 0,
      oversized: newJson !== undefined && Buffer.byteLength(newJson) >= MAX_RESPONSE_BYTES,
    });
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
