// `gitops-config diff <repo-dir> <base-rev> [<head-rev>]`: which clusters' responses a change
// really changes. Both revisions are loaded with the server's code and every cluster's three
// responses are computed with the server's merge code; then they are compared by cluster id
// and input id, field by field.
import { dnsKey } from '../domain/cluster-dns.ts';
import { judge } from '../domain/judge.ts';
import { type Problem, withSources } from '../domain/problem.ts';
import { clusterSummaryInputs, MAX_RESPONSE_BYTES, PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../domain/projections/index.ts';
import type { Cluster } from '../domain/records.ts';
import { compareIds, type Snapshot } from '../domain/snapshot.ts';
import { ObjectReader } from '../store/git/files/object-reader.ts';
import { commitAllowsShrink } from '../store/git/history.ts';
import { headCommit as headOf } from '../store/git/repository.ts';
import { RecordFileLoader } from '../store/record-files/record-file-loader.ts';
import { fileTexts, revisionReport } from './revision-report.ts';
import { locateProblems } from './problem-positions.ts';
import { commitFiles, historyOf, resolveRevision, type RevisionFiles, workingTreeFiles } from './revisions.ts';

export const ENDPOINT_NAMES = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

export interface FieldChange {
  /** Dotted name for people: "source.oci_tag", "patches.ui.color". */
  field: string;
  /** The same as a list of keys, exact even when a key holds a dot. */
  path: string[];
  /** Absent when the field did not exist before. */
  old?: unknown;
  /** Absent when the field no longer exists. */
  new?: unknown;
}

export interface InputChange {
  id: string;
  fields: FieldChange[];
}

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

export interface ListingDiff {
  added: string[];
  removed: string[];
  changed: InputChange[];
}

export interface RevisionInfo {
  label: string;
  commit: string | null;
  /** Problems that make the server refuse this revision (empty when it loads). */
  problems: Problem[];
}

export interface DiffReport {
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

export interface DiffRevisions {
  base: RevisionFiles;
  head: RevisionFiles;
  /** The head's newest commit says `Gitops-Allow-Shrink: yes`. */
  headAllowsShrink: boolean;
}

/** Reads both revisions; head undefined means the working tree. */
export async function readRevisions(dir: string, baseRev: string, headRev: string | undefined): Promise<DiffRevisions> {
  const cache = {};
  const repo = historyOf(dir, baseRev);
  const baseCommit = await resolveRevision(repo, baseRev, cache);
  const headCommit = headRev === undefined ? undefined : await resolveRevision(repo, headRev, cache);
  // Blobs are addressed by content: a working-tree file whose Git blob id matches a blob of a
  // commit holds exactly that blob's text. Most files are the same in both revisions and in
  // the checkout, so only the files a change touches are read (and inflated) from the object
  // store.
  const workingTree = await workingTreeFiles(dir);
  const known = new Map(workingTree.files.flatMap((f) => (f.text === undefined ? [] : [[f.blobId, f.text] as const])));
  const reader = new ObjectReader(repo.root, cache);
  const head = headCommit === undefined ? workingTree : await commitFiles(repo, headRev!, headCommit, cache, known, reader);
  for (const f of head.files) if (f.text !== undefined) known.set(f.blobId, f.text);
  const base = await commitFiles(repo, baseRev, baseCommit, cache, known, reader);
  const newest = headCommit ?? (await headOf(repo.root));
  return { base, head, headAllowsShrink: newest !== undefined && (await commitAllowsShrink(repo.root, newest, cache)) };
}

export async function diffRevisions({ base, head, headAllowsShrink }: DiffRevisions): Promise<DiffReport> {
  // One loader: the head's files that the base has too are parsed once.
  const loader = new RecordFileLoader();
  const before = await revisionReport(loader, base.files, base.commit ?? 'base');
  const after = await revisionReport(loader, head.files, head.commit ?? 'working-tree');
  const report = diffSnapshots(before.snapshot, after.snapshot);
  // As the server would judge the head while it serves the base.
  const judgement = judge({ snapshot: after.snapshot, problems: after.loadProblems, allowShrink: headAllowsShrink }, before.snapshot);
  const blocking = await locateProblems(withSources(judgement.blocking, after.sources), fileTexts(head.files));
  report.base = { label: base.label, commit: base.commit ?? null, problems: await locateProblems(before.loadProblems, fileTexts(base.files)) };
  report.head = { label: head.label, commit: head.commit ?? null, problems: blocking };
  report.verdict = { publish: judgement.publish, problems: blocking };
  return report;
}

export function diffSnapshots(before: Snapshot, after: Snapshot): DiffReport {
  const ids = new Set([...before.clusters.keys(), ...after.clusters.keys()]);
  const clusters: ClusterDiff[] = [];
  for (const id of [...ids].sort(compareIds)) {
    const diff = diffCluster(before, after, before.clusters.get(id), after.clusters.get(id));
    if (diff) clusters.push(diff);
  }
  const listing = diffInputLists(clusterSummaryInputs(before), clusterSummaryInputs(after));
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
  return { base: none, head: none, verdict: { publish: true, problems: [] }, clusters, listing, summary };
}

function diffCluster(before: Snapshot, after: Snapshot, old: Cluster | undefined, now: Cluster | undefined): ClusterDiff | undefined {
  const cluster = (now ?? old)!;
  const endpoints: EndpointDiff[] = [];
  for (const endpoint of ENDPOINT_NAMES) {
    const oldInputs = old ? PER_CLUSTER_ENDPOINTS[endpoint](before, old) : undefined;
    const newInputs = now ? PER_CLUSTER_ENDPOINTS[endpoint](after, now) : undefined;
    const oldJson = oldInputs && JSON.stringify({ inputs: oldInputs });
    const newJson = newInputs && JSON.stringify({ inputs: newInputs });
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
  // The read endpoints match DNS names case-insensitively: only another name moves the URL.
  const dnsChanged = old && now && dnsKey(old.cluster_dns) !== dnsKey(now.cluster_dns);
  if (endpoints.length === 0 && !dnsChanged) return undefined;
  return {
    id: cluster.id,
    status: !old ? 'added' : !now ? 'removed' : 'changed',
    environment: cluster.environment,
    cluster_dns: cluster.cluster_dns,
    ...(dnsChanged ? { previous_cluster_dns: old.cluster_dns } : {}),
    ...(old && now && old.environment !== now.environment ? { previous_environment: old.environment } : {}),
    endpoints,
  };
}

function diffInputLists(oldInputs: { id: string }[], newInputs: { id: string }[]): ListingDiff {
  const oldById = new Map(oldInputs.map((i) => [i.id, i]));
  const newById = new Map(newInputs.map((i) => [i.id, i]));
  const added = newInputs.filter((i) => !oldById.has(i.id)).map((i) => i.id);
  const removed = oldInputs.filter((i) => !newById.has(i.id)).map((i) => i.id);
  const changed: InputChange[] = [];
  for (const input of newInputs) {
    const previous = oldById.get(input.id);
    if (!previous || deepEqual(previous, input)) continue;
    const fields = diffFields(previous, input);
    if (fields.length > 0) changed.push({ id: input.id, fields });
  }
  return { added, removed, changed };
}

function reordered(oldInputs: { id: string }[], newInputs: { id: string }[]): boolean {
  const common = new Set(newInputs.map((i) => i.id));
  const oldOrder = oldInputs.map((i) => i.id).filter((id) => common.has(id));
  const kept = new Set(oldOrder);
  const newOrder = newInputs.map((i) => i.id).filter((id) => kept.has(id));
  return oldOrder.some((id, index) => newOrder[index] !== id);
}

/** Leaf-by-leaf differences; lists are compared whole, objects key by key. */
export function diffFields(oldValue: unknown, newValue: unknown): FieldChange[] {
  const oldLeaves = leaves(oldValue);
  const newLeaves = leaves(newValue);
  const changes: FieldChange[] = [];
  for (const [key, leaf] of newLeaves) {
    const previous = oldLeaves.get(key);
    if (previous === undefined) changes.push({ field: leaf.path.join('.'), path: leaf.path, new: leaf.value });
    else if (JSON.stringify(previous.value) !== JSON.stringify(leaf.value)) {
      changes.push({ field: leaf.path.join('.'), path: leaf.path, old: previous.value, new: leaf.value });
    }
  }
  for (const [key, leaf] of oldLeaves) {
    if (!newLeaves.has(key)) changes.push({ field: leaf.path.join('.'), path: leaf.path, old: leaf.value });
  }
  return changes;
}

function leaves(value: unknown, path: string[] = [], out = new Map<string, { path: string[]; value: unknown }>()) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) leaves(child, [...path, key], out);
  } else {
    out.set(path.join('\u0000'), { path, value });
  }
  return out;
}

/** Structural equality of JSON values (key order ignored: it is fixed by the merge code anyway). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(b, key) || !deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
