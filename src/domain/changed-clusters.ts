// Which clusters' answers differ between two revisions, exactly and cheaply. Records are
// immutable, and a snapshot built from another keeps the objects of records that did not
// change. So a cluster whose record is the same object in both answers the same bytes but for
// the inputs of references whose definitions are other objects now: each input is made from
// the cluster record, its own reference and the definition it resolves to (./projections/),
// so only those inputs are merged and compared — one per cluster for a catalog bump that
// reaches the whole fleet, none for the clusters it does not reach. A cluster whose record
// changed is merged whole, in both revisions. A catalog entry is compared as the cluster is
// served it: with a rollout's `set` applied where its step is released (./rollouts/), so a
// commit that moves `released` changes exactly the clusters of the steps it moves.
import { dnsKey } from './cluster-dns.ts';
import { LayeredMap } from './layered-map.ts';
import { sameJson } from './input-diff.ts';
import { ENDPOINT_DEFINITIONS, PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from './projections/index.ts';
import type { Cluster, ComponentRef, PlatformComponent } from './records.ts';
import { effectiveComponent, membersServedOtherwise, type RolloutView, rolloutView } from './rollouts/rollout-view.ts';
import { compareIds, type Snapshot } from './snapshot.ts';
import type { Steps } from './steps.ts';

export const ENDPOINT_NAMES = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

type Reference = Cluster[(typeof ENDPOINT_DEFINITIONS)[PerClusterEndpoint]][number];

/**
 * How a cluster's answer on an endpoint may differ between two revisions: not at all (the
 * record and every definition it resolves to are the same objects), only in the inputs of
 * `references` (the same record; those references resolve to other definitions, none of them
 * missing on either side, so no input comes or goes), or anywhere.
 */
export type AnswerChange = { kind: 'same' } | { kind: 'inputs'; references: Reference[] } | { kind: 'whole' };

/**
 * Per definitions field, the ids whose definition is another object in the two revisions,
 * worked out once for a walk of the fleet: a cluster's reference to any other id is served the
 * same definition on both sides, and answerChange need not look it up. Undefined for a field
 * where that does not hold: the catalog, when a rollout may serve an unchanged entry otherwise
 * (other rollouts, or other clusters to plan them over).
 */
export type DefinitionChanges = { readonly [F in DefinitionField]: ReadonlySet<string> | undefined };

type DefinitionField = (typeof ENDPOINT_DEFINITIONS)[PerClusterEndpoint];

export function definitionChanges(before: Snapshot, after: Snapshot): DefinitionChanges {
  return {
    platform_components: plansMayMove(before, after)
      ? undefined
      : differentDefinitions(before.platform_components, after.platform_components),
    namespaces: differentDefinitions(before.namespaces, after.namespaces),
    rolebindings: differentDefinitions(before.rolebindings, after.rolebindings),
  };
}

function differentDefinitions(was: ReadonlyMap<string, unknown>, is: ReadonlyMap<string, unknown>): Set<string> {
  const ids = new Set<string>();
  if (was === is) return ids;
  for (const [id, definition] of is) if (was.get(id) !== definition) ids.add(id);
  for (const id of was.keys()) if (!is.has(id)) ids.add(id);
  return ids;
}

export function answerChange(
  before: Snapshot,
  after: Snapshot,
  old: Cluster,
  now: Cluster,
  endpoint: PerClusterEndpoint,
  changes?: DefinitionChanges,
): AnswerChange {
  if (old !== now) return { kind: 'whole' };
  const field = ENDPOINT_DEFINITIONS[endpoint];
  const was: ReadonlyMap<string, unknown> = before[field];
  const is: ReadonlyMap<string, unknown> = after[field];
  const viaRollouts = endpoint === 'platform-components' && (was !== is || plansMayMove(before, after));
  if (was === is && !viaRollouts) return { kind: 'same' };
  const [viewBefore, viewAfter] = viaRollouts ? [rolloutView(before), rolloutView(after)] : [undefined, undefined];
  const changed = changes?.[field];
  let references: Reference[] | undefined;
  for (const ref of now[field]) {
    if (changed !== undefined && !changed.has(ref.id)) continue;
    const a = viewBefore ? servedEntry(viewBefore, before, now, ref as ComponentRef) : was.get(ref.id);
    const b = viewAfter ? servedEntry(viewAfter, after, now, ref as ComponentRef) : is.get(ref.id);
    if (a === b) continue;
    // A definition that appears or goes adds or drops an input.
    if (a === undefined || b === undefined) return { kind: 'whole' };
    (references ??= []).push(ref);
  }
  return references ? { kind: 'inputs', references } : { kind: 'same' };
}

/** The catalog entry a reference is served from in a revision (with a rollout's set where released), or undefined. */
function servedEntry(
  view: RolloutView,
  snapshot: Snapshot,
  cluster: Cluster,
  ref: ComponentRef,
): PlatformComponent | undefined {
  const entry = snapshot.platform_components.get(ref.id);
  return entry === undefined ? undefined : effectiveComponent(view, cluster, ref, entry);
}

/** The inputs of only these references of the cluster, in a revision: the part of its answer they make. */
export function partOfAnswer(
  snapshot: Snapshot,
  cluster: Cluster,
  endpoint: PerClusterEndpoint,
  references: readonly Reference[],
): { id: string }[] {
  return PER_CLUSTER_ENDPOINTS[endpoint](snapshot, { ...cluster, [ENDPOINT_DEFINITIONS[endpoint]]: references });
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
  const steps = changedClusterIdsInSteps(before, after);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How many clusters are looked at between two pauses of changedClusterIdsInSteps. */
export const CLUSTERS_PER_STEP = 1000;

/**
 * changedClusterIds in steps: the generator pauses after every `clustersPerStep` clusters it
 * looked at, and after each cluster a write changed (its answers are merged whole), and
 * returns the ids at its end, so that a caller sharing a thread with requests can let them in
 * between (a catalog change reaching 50,000 clusters takes some 150–200 ms).
 */
export function* changedClusterIdsInSteps(
  before: Snapshot,
  after: Snapshot,
  clustersPerStep = CLUSTERS_PER_STEP,
): Steps<string[]> {
  const changed: string[] = [];
  const sameDefinitions =
    before.platform_components === after.platform_components &&
    before.namespaces === after.namespaces &&
    before.rolebindings === after.rolebindings &&
    before.rollouts === after.rollouts;
  if (before.clusters === after.clusters && sameDefinitions) return changed;
  // An unchanged cluster record answers as before when the definitions are the same objects,
  // unless a rollout's plan moved it to another step: the plan is made over the clusters, so a
  // write of one cluster (its environment, its references) can move others.
  const plansMoved = plansMayMove(before, after);
  const unchangedSame = sameDefinitions && !plansMoved;
  // A write to a few clusters: only the clusters it wrote can have changed (and the members a
  // plan served otherwise since), and the maps say which they are without a walk of the fleet
  // (50,000 entries: some 50 ms). A write of rollouts alone (a release, a rollback) can change
  // only the members of their components.
  const written = sameDefinitions
    ? clustersWritten(before, after)
    : onlyRolloutsMoved(before, after)
      ? membersServedOtherwise(before, after)
      : undefined;
  if (written !== undefined) {
    for (const id of written) {
      const old = before.clusters.get(id);
      const now = after.clusters.get(id);
      if (old === now && unchangedSame) continue;
      if (!old || !now || clusterChanged(before, after, old, now)) changed.push(id);
      // A written cluster's answers are merged whole on both sides: one may be a megabyte.
      yield;
    }
    return changed.sort(compareIds);
  }
  // Both maps iterate in id order, so the ids come out in order: merged, not sorted (a sort
  // of 49,000 ids would hold the event loop for tens of milliseconds in one piece).
  // A definitions change leaves the clusters map as it was: each record is its own before.
  const sameClusters = before.clusters === after.clusters;
  const changes = definitionChanges(before, after);
  let looked = 0;
  for (const [id, now] of after.clusters) {
    const old = sameClusters ? now : before.clusters.get(id);
    if (old === now && unchangedSame) continue;
    if (!old || clusterChanged(before, after, old, now, changes)) changed.push(id);
    if (++looked % clustersPerStep === 0) yield;
  }
  const removed: string[] = [];
  for (const id of before.clusters.keys()) if (!after.clusters.has(id)) removed.push(id);
  return removed.length === 0 ? changed : mergeInOrder(changed, removed);
}

/**
 * The clusters whose answers a write of cluster records alone can have changed: those it
 * wrote, which the maps name without a walk of the fleet, and the members a rollout's plan,
 * made over the clusters, serves otherwise since. Undefined when the maps do not say.
 */
export function clustersWritten(before: Snapshot, after: Snapshot): Set<string> | undefined {
  const written = LayeredMap.differingKeys(before.clusters, after.clusters);
  if (written === undefined || !plansMayMove(before, after)) return written;
  for (const id of membersServedOtherwise(before, after)) written.add(id);
  return written;
}

/**
 * Whether a rollout may serve a cluster whose record did not change otherwise: other rollouts,
 * or other clusters to plan them over.
 */
export function plansMayMove(before: Snapshot, after: Snapshot): boolean {
  return (
    (before.rollouts.size > 0 || after.rollouts.size > 0) &&
    (before.rollouts !== after.rollouts || before.clusters !== after.clusters)
  );
}

function onlyRolloutsMoved(before: Snapshot, after: Snapshot): boolean {
  return (
    before.clusters === after.clusters &&
    before.platform_components === after.platform_components &&
    before.namespaces === after.namespaces &&
    before.rolebindings === after.rolebindings
  );
}

function mergeInOrder(a: readonly string[], b: readonly string[]): string[] {
  const merged: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(compareIds(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
  while (i < a.length) merged.push(a[i++]);
  while (j < b.length) merged.push(b[j++]);
  return merged;
}

function clusterChanged(
  before: Snapshot,
  after: Snapshot,
  old: Cluster,
  now: Cluster,
  changes?: DefinitionChanges,
): boolean {
  if (dnsMoved(old, now)) return true;
  for (const endpoint of ENDPOINT_NAMES) {
    const change = answerChange(before, after, old, now, endpoint, changes);
    if (change.kind === 'same') continue;
    if (change.kind === 'whole') {
      if (!sameJson(PER_CLUSTER_ENDPOINTS[endpoint](before, old), PER_CLUSTER_ENDPOINTS[endpoint](after, now)))
        return true;
    } else if (
      !sameJson(
        partOfAnswer(before, now, endpoint, change.references),
        partOfAnswer(after, now, endpoint, change.references),
      )
    )
      return true;
  }
  return false;
}
