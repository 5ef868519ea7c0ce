// Which clusters' answers differ between two revisions, exactly and cheaply. Records are
// immutable and a snapshot built from another keeps the objects of records that did not
// change, so a cluster whose record and referenced definitions are the same objects in both
// answers the same bytes, and is passed over without merging anything (as the encoded body
// cache does). Only the others are merged in both revisions and compared.
import { dnsKey } from './cluster-dns.ts';
import { ENDPOINT_DEFINITIONS, PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from './projections/index.ts';
import type { Cluster } from './records.ts';
import { compareIds, type Snapshot } from './snapshot.ts';

export const ENDPOINT_NAMES = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

/**
 * Whether the cluster's answer on the endpoint may differ: false when the cluster record and
 * every definition its references resolve to are the same objects in both revisions.
 */
export function answerMayDiffer(before: Snapshot, after: Snapshot, old: Cluster, now: Cluster, endpoint: PerClusterEndpoint): boolean {
  if (old !== now) return true;
  const field = ENDPOINT_DEFINITIONS[endpoint];
  const was: ReadonlyMap<string, unknown> = before[field];
  const is: ReadonlyMap<string, unknown> = after[field];
  if (was === is) return false;
  for (const ref of now[field]) if (was.get(ref.id) !== is.get(ref.id)) return true;
  return false;
}

/** The two answers of a cluster on an endpoint as JSON text, each undefined where the cluster is not (404). */
export function answerTexts(
  before: Snapshot,
  after: Snapshot,
  old: Cluster | undefined,
  now: Cluster | undefined,
  endpoint: PerClusterEndpoint,
): { oldInputs?: { id: string }[]; newInputs?: { id: string }[]; oldJson?: string; newJson?: string } {
  const oldInputs = old ? PER_CLUSTER_ENDPOINTS[endpoint](before, old) : undefined;
  const newInputs = now ? PER_CLUSTER_ENDPOINTS[endpoint](after, now) : undefined;
  return { oldInputs, newInputs, oldJson: oldInputs && JSON.stringify({ inputs: oldInputs }), newJson: newInputs && JSON.stringify({ inputs: newInputs }) };
}

/** The read endpoints match DNS names case-insensitively: only another name moves the URL. */
export function dnsMoved(old: Cluster | undefined, now: Cluster | undefined): boolean {
  return old !== undefined && now !== undefined && old !== now && dnsKey(old.cluster_dns) !== dnsKey(now.cluster_dns);
}

/**
 * The ids of the clusters whose answers differ, in id order: added or removed clusters, a
 * cluster_dns that moved (the old URL answers 404), and any endpoint whose body changes.
 * The same clusters the diff of the two revisions (./revision-diff.ts) lists.
 */
export function changedClusterIds(before: Snapshot, after: Snapshot): string[] {
  const changed: string[] = [];
  const sameDefinitions =
    before.platform_components === after.platform_components && before.namespaces === after.namespaces && before.rolebindings === after.rolebindings;
  if (before.clusters === after.clusters && sameDefinitions) return changed;
  for (const [id, now] of after.clusters) {
    const old = before.clusters.get(id);
    if (old === now && sameDefinitions) continue;
    if (!old || clusterChanged(before, after, old, now)) changed.push(id);
  }
  for (const id of before.clusters.keys()) if (!after.clusters.has(id)) changed.push(id);
  return changed.sort(compareIds);
}

function clusterChanged(before: Snapshot, after: Snapshot, old: Cluster, now: Cluster): boolean {
  if (dnsMoved(old, now)) return true;
  for (const endpoint of ENDPOINT_NAMES) {
    if (!answerMayDiffer(before, after, old, now, endpoint)) continue;
    const { oldJson, newJson } = answerTexts(before, after, old, now, endpoint);
    if (oldJson !== newJson) return true;
  }
  return false;
}
