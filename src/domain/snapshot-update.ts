// Building the snapshot of a revision from the one before it. The loader hands out the same
// record objects for files that did not change, so two consecutive revisions share almost all
// of their records: the collections that did not change keep their maps (which lets the
// per-cluster rules see at once that nothing a cluster depends on changed), and a changed one
// is copied once. The result is exactly what createSnapshot gives; whenever the change raises
// a problem, createSnapshot builds it, so problems are placed exactly as it places them.
import { dnsKey } from './cluster-dns.ts';
import { type AnyRecord, type Cluster, type Collection, COLLECTIONS, type RecordSets } from './records.ts';
import { carryIdScan } from './rules/portable-ids.ts';
import { duplicateReferences } from './rules/uniqueness.ts';
import { compareIds, createSnapshot, type Snapshot, type SnapshotResult } from './snapshot.ts';

/** Past this share of a collection changed, building it anew is as cheap. */
const INCREMENTAL_SHARE = 0.25;
const INCREMENTAL_MIN = 32;

export function updateSnapshot(previous: Snapshot | undefined, records: RecordSets, revision: string): SnapshotResult {
  if (!previous) return createSnapshot(records, revision);
  const maps = {} as Record<Collection, ReadonlyMap<string, AnyRecord>>;
  const changedClusters: Cluster[] = [];
  const goneClusters: Cluster[] = [];
  for (const collection of COLLECTIONS) {
    const old = previous[collection] as ReadonlyMap<string, AnyRecord>;
    const list = records[collection] as AnyRecord[];
    const changed: AnyRecord[] = [];
    let kept = 0;
    for (const record of list) {
      if (old.get(record.id) === record) kept++;
      else changed.push(record);
    }
    // A record listed twice (even the same object twice): createSnapshot says which.
    const ids = new Set(list.map((r) => r.id));
    if (ids.size !== list.length) return createSnapshot(records, revision);
    if (changed.length === 0 && kept === old.size) {
      maps[collection] = old;
      continue;
    }
    const removed = old.size - kept - changed.filter((r) => old.has(r.id)).length;
    if (changed.length + removed > Math.max(INCREMENTAL_MIN, INCREMENTAL_SHARE * old.size))
      return createSnapshot(records, revision);
    const next = new Map(old);
    const removedIds: string[] = [];
    if (removed > 0) {
      for (const [id, record] of old) {
        if (ids.has(id)) continue;
        next.delete(id);
        removedIds.push(id);
        if (collection === 'clusters') goneClusters.push(record as Cluster);
      }
    }
    const added: AnyRecord[] = [];
    for (const record of changed) {
      const before = old.get(record.id);
      if (before && collection === 'clusters') goneClusters.push(before as Cluster);
      if (before) next.set(record.id, freeze(record));
      else added.push(freeze(record));
      if (collection === 'clusters') changedClusters.push(record as Cluster);
    }
    maps[collection] = added.length === 0 ? next : inIdOrder(next, added);
    carryIdScan(
      old,
      maps[collection],
      added.map((r) => r.id),
      removedIds,
    );
  }
  let clustersByDns = previous.clustersByDns;
  if (maps.clusters !== previous.clusters) {
    const byDns = new Map(clustersByDns);
    for (const gone of goneClusters)
      if (byDns.get(dnsKey(gone.cluster_dns)) === gone) byDns.delete(dnsKey(gone.cluster_dns));
    for (const cluster of changedClusters.sort((a, b) => compareIds(a.id, b.id))) {
      const key = dnsKey(cluster.cluster_dns);
      if (byDns.has(key) || duplicateReferences(cluster).length > 0) return createSnapshot(records, revision);
      byDns.set(key, cluster);
    }
    clustersByDns = byDns;
  }
  const snapshot = Object.freeze({ revision, ...(maps as Pick<Snapshot, Collection>), clustersByDns });
  return { ok: true, snapshot };
}

/** `map` (in id order) with `added` put in their places. */
function inIdOrder(map: Map<string, AnyRecord>, added: AnyRecord[]): Map<string, AnyRecord> {
  added.sort((a, b) => compareIds(a.id, b.id));
  const out = new Map<string, AnyRecord>();
  let next = 0;
  for (const [id, record] of map) {
    while (next < added.length && compareIds(added[next].id, id) < 0) out.set(added[next].id, added[next++]);
    out.set(id, record);
  }
  while (next < added.length) out.set(added[next].id, added[next++]);
  return out;
}

function freeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) freeze(child);
    Object.freeze(value);
  }
  return value;
}
