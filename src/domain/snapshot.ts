// A snapshot is one immutable, consistent view of all the record sets at one revision.
// Backends build snapshots; the read path only ever looks at one snapshot per request,
// so a reader never sees a mix of two revisions.
import { dnsKey } from './cluster-dns.ts';
import { compareIds } from './ids.ts';
import { LayeredMap } from './layered-map.ts';
import type { Problem } from './problem.ts';
import type { Cluster, Collection, NamespaceDef, PlatformComponent, RecordOf, RecordSets, RoleBindingDef, Rollout } from './records.ts';
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
  const changed = LayeredMap.with(snapshot[collection] as ReadonlyMap<string, RecordOf[C]>, id, record === null ? null : deepFreeze(record));
  carryIdScan(snapshot[collection], changed, previous === undefined && record !== null ? [id] : [], previous !== undefined && record === null ? [id] : []);

  let clustersByDns = snapshot.clustersByDns;
  if (collection === 'clusters') {
    const before = previous as Cluster | undefined;
    if (before && clustersByDns.get(dnsKey(before.cluster_dns)) === before) clustersByDns = LayeredMap.with(clustersByDns, dnsKey(before.cluster_dns), null);
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

/** The same snapshot under another revision id (the data is shared, not copied). */
export function withRevision(snapshot: Snapshot, revision: string): Snapshot {
  return Object.freeze({ ...snapshot, revision });
}

function indexById<C extends Collection>(collection: C, list: RecordOf[C][], problems: Problem[]): Map<string, RecordOf[C]> {
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

function deepFreeze<T>(value: T): T {
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
