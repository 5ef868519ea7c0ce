// A snapshot is one immutable, consistent view of all the record sets at one revision.
// Backends build snapshots; the read path only ever looks at one snapshot per request,
// so a reader never sees a mix of two revisions.
import { dnsKey } from './cluster-dns.ts';
import { compareIds } from './ids.ts';
import { LayeredMap } from './layered-map.ts';
import { runSteps, type Steps } from './steps.ts';
import type { Problem } from './problem.ts';
import {
  type AnyRecord,
  type Cluster,
  type Collection,
  COLLECTIONS,
  type NamespaceDef,
  type PlatformComponent,
  type RecordOf,
  type RecordSets,
  type RoleBindingDef,
  type Rollout,
} from './records.ts';
import { carryIdScan } from './rules/portable-ids.ts';
import { duplicateClusterDns, duplicateId, duplicateReferences } from './rules/uniqueness.ts';

export interface Snapshot {
  /** Git commit id (with a marker for uncommitted edits), SQLite counter or content hash. */
  readonly revision: string;
  /** Each map iterates in id order. */
  readonly clusters: ReadonlyMap<string, Cluster>;
  readonly platform_components: ReadonlyMap<string, PlatformComponent>;
  readonly namespaces: ReadonlyMap<string, NamespaceDef>;
  readonly rolebindings: ReadonlyMap<string, RoleBindingDef>;
  /** Rollouts (rollouts/): how catalog entries reach the clusters using them, step by step. */
  readonly rollouts: ReadonlyMap<string, Rollout>;
  /** Clusters by `dnsKey(cluster_dns)`. */
  readonly clustersByDns: ReadonlyMap<string, Cluster>;
}

/**
 * On failure `partial` is still a usable snapshot (the first record of a repeated id, the
 * first cluster of a repeated DNS name), so that a validator can go on and report the rest.
 */
export type SnapshotResult = { ok: true; snapshot: Snapshot } | { ok: false; problems: Problem[]; partial: Snapshot };

/**
 * Builds a snapshot from records that already passed their schema. It refuses only what
 * would make a served answer ambiguous or invalid for the consumer: two records with one id,
 * two clusters with one DNS name, and a reference listed twice in one cluster (the consumer
 * rejects a response with duplicate input ids). Dangling references are not refused here:
 * the read endpoints skip them, as the read contract says (docs/decisions/0016-read-contract-and-consumer.md).
 */
export function createSnapshot(records: RecordSets, revision: string): SnapshotResult {
  const problems: Problem[] = [];
  const maps = {
    clusters: indexById('clusters', records.clusters, problems),
    platform_components: indexById('platform_components', records.platform_components, problems),
    namespaces: indexById('namespaces', records.namespaces, problems),
    rolebindings: indexById('rolebindings', records.rolebindings, problems),
    rollouts: indexById('rollouts', records.rollouts, problems),
  };

  const clustersByDns = new Map<string, Cluster>();
  for (const cluster of maps.clusters.values()) {
    problems.push(...addClusterDns(clustersByDns, cluster), ...duplicateReferences(cluster));
  }

  const snapshot: Snapshot = Object.freeze({ revision, ...maps, clustersByDns });
  return problems.length > 0 ? { ok: false, problems, partial: snapshot } : { ok: true, snapshot };
}

/**
 * The snapshot with one record replaced, added (record given, id new) or removed (null),
 * at `revision`. The same result as createSnapshot on the changed record sets, with the same
 * refusals for the changed record, but without re-indexing every record: a REST write on a
 * fleet of 10,000 clusters copies the maps instead of rebuilding them.
 */
export function withRecord<C extends Collection>(
  snapshot: Snapshot,
  collection: C,
  id: string,
  record: RecordOf[C] | null,
  revision: string,
): SnapshotResult {
  if (record !== null && record.id !== id) throw new Error(`withRecord: record id "${record.id}" is not "${id}"`);
  const problems: Problem[] = [];
  const previous = snapshot[collection].get(id) as RecordOf[C] | undefined;
  const changed = LayeredMap.with(
    snapshot[collection] as ReadonlyMap<string, RecordOf[C]>,
    id,
    record === null ? null : deepFreeze(record),
  );
  carryIdScan(
    snapshot[collection],
    changed,
    previous === undefined && record !== null ? [id] : [],
    previous !== undefined && record === null ? [id] : [],
  );

  let clustersByDns = snapshot.clustersByDns;
  if (collection === 'clusters') {
    const before = previous as Cluster | undefined;
    if (before && clustersByDns.get(dnsKey(before.cluster_dns)) === before)
      clustersByDns = LayeredMap.with(clustersByDns, dnsKey(before.cluster_dns), null);
    const cluster = changed.get(id) as Cluster | undefined;
    if (cluster) {
      const key = dnsKey(cluster.cluster_dns);
      const taken = clustersByDns.get(key);
      if (taken) problems.push(duplicateClusterDns(cluster, taken));
      else clustersByDns = LayeredMap.with(clustersByDns, key, cluster);
      problems.push(...duplicateReferences(cluster));
    }
  }

  const next: Snapshot = Object.freeze({ ...snapshot, revision, [collection]: changed, clustersByDns });
  return problems.length > 0 ? { ok: false, problems, partial: next } : { ok: true, snapshot: next };
}

/** One record of withRecords: replaced, added, or removed (null). */
export interface RecordReplacement {
  collection: Collection;
  id: string;
  record: AnyRecord | null;
}

/**
 * The snapshot with several records replaced, added or removed at once (each record at most
 * once), at `revision`: what withRecord would make of them one after the other, with one new
 * map per collection changed instead of one per record. A change set's revision is made so.
 */
export function withRecords(
  snapshot: Snapshot,
  changes: readonly RecordReplacement[],
  revision: string,
): SnapshotResult {
  return runSteps(withRecordsInSteps(snapshot, changes, revision));
}

/** withRecords in steps (a map folded a few thousand entries at a time: LayeredMap.withAllInSteps). */
export function* withRecordsInSteps(
  snapshot: Snapshot,
  changes: readonly RecordReplacement[],
  revision: string,
): Steps<SnapshotResult> {
  const problems: Problem[] = [];
  const maps: Partial<Record<Collection, ReadonlyMap<string, AnyRecord>>> = {};
  for (const collection of COLLECTIONS) {
    const mine = changes.filter((c) => c.collection === collection);
    if (mine.length === 0) continue;
    const before = snapshot[collection] as ReadonlyMap<string, AnyRecord>;
    for (const c of mine)
      if (c.record !== null && c.record.id !== c.id)
        throw new Error(`withRecords: record id "${c.record.id}" is not "${c.id}"`);
    const after = yield* LayeredMap.withAllInSteps(
      before,
      mine.map((c) => [c.id, c.record === null ? null : deepFreeze(c.record)] as const),
    );
    const added = mine.filter((c) => c.record !== null && !before.has(c.id)).map((c) => c.id);
    const removed = mine.filter((c) => c.record === null && before.has(c.id)).map((c) => c.id);
    carryIdScan(before, after, added, removed);
    maps[collection] = after;
  }

  // DNS names: every name the written clusters held is let go first, then each takes its new one.
  const clusterChanges = changes.filter((c) => c.collection === 'clusters');
  const dns = new Map<string, Cluster | null>();
  const holder = (key: string) => (dns.has(key) ? (dns.get(key) ?? undefined) : snapshot.clustersByDns.get(key));
  for (const { id } of clusterChanges) {
    const before = snapshot.clusters.get(id);
    if (before && holder(dnsKey(before.cluster_dns)) === before) dns.set(dnsKey(before.cluster_dns), null);
  }
  for (const { record } of clusterChanges) {
    const cluster = record as Cluster | null;
    if (cluster === null) continue;
    const key = dnsKey(cluster.cluster_dns);
    const taken = holder(key);
    if (taken) problems.push(duplicateClusterDns(cluster, taken));
    else dns.set(key, cluster);
    problems.push(...duplicateReferences(cluster));
  }
  const clustersByDns =
    dns.size === 0 ? snapshot.clustersByDns : yield* LayeredMap.withAllInSteps(snapshot.clustersByDns, dns);
  const next = Object.freeze({ ...snapshot, ...maps, revision, clustersByDns }) as Snapshot;
  return problems.length > 0 ? { ok: false, problems, partial: next } : { ok: true, snapshot: next };
}

/** The same snapshot under another revision id (the data is shared, not copied). */
export function withRevision(snapshot: Snapshot, revision: string): Snapshot {
  return Object.freeze({ ...snapshot, revision });
}

function indexById<C extends Collection>(
  collection: C,
  list: RecordOf[C][],
  problems: Problem[],
): Map<string, RecordOf[C]> {
  const sorted = [...list].sort((a, b) => compareIds(a.id, b.id));
  const map = new Map<string, RecordOf[C]>();
  for (const record of sorted) {
    if (map.has(record.id)) {
      problems.push(duplicateId(collection, record.id));
      continue;
    }
    map.set(record.id, deepFreeze(record));
  }
  return map;
}

export { compareIds };

/** Indexes the cluster under its DNS name, unless another cluster has that name already. */
function addClusterDns(byDns: Map<string, Cluster>, cluster: Cluster): Problem[] {
  const key = dnsKey(cluster.cluster_dns);
  const other = byDns.get(key);
  if (other) return [duplicateClusterDns(cluster, other)];
  byDns.set(key, cluster);
  return [];
}

/** Freezes a record and everything in it (what a snapshot holds is never changed). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export function snapshotRecords(snapshot: Snapshot): RecordSets {
  return {
    clusters: [...snapshot.clusters.values()],
    platform_components: [...snapshot.platform_components.values()],
    namespaces: [...snapshot.namespaces.values()],
    rolebindings: [...snapshot.rolebindings.values()],
    rollouts: [...snapshot.rollouts.values()],
  };
}
