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
import { LayeredMap } from './layered-map.ts';
import { compareIds, createSnapshot, type Snapshot, type SnapshotResult } from './snapshot.ts';
import { runSteps, type Steps } from './steps.ts';

/** Past this share of a collection changed, building it anew is as cheap. */
const INCREMENTAL_SHARE = 0.25;
const INCREMENTAL_MIN = 32;
/** Records looked at between two pauses. */
const PER_STEP = 1000;

/**
 * What a loader may know of its records: they are those of revision `base` with these put in
 * place of the records of the same ids, none added or removed.
 */
export interface ReplacedRecords {
  base: string;
  records: Partial<Record<Collection, readonly AnyRecord[]>>;
}

export function updateSnapshot(
  previous: Snapshot | undefined,
  records: RecordSets,
  revision: string,
  replaced?: ReplacedRecords,
): SnapshotResult {
  return runSteps(updateSnapshotInSteps(previous, records, revision, replaced));
}

/**
 * updateSnapshot in steps: at 50,000 clusters the walks of every record and the maps of the
 * changed collections took 100-200 ms in one piece. The maps are not copied: each changed one
 * is a LayeredMap over the previous (../layered-map.ts), which also lets what comes after tell
 * the changed ids without a walk.
 */
export function* updateSnapshotInSteps(
  previous: Snapshot | undefined,
  records: RecordSets,
  revision: string,
  /** When the records are `previous`'s with these replaced: only they are looked at. */
  replaced?: ReplacedRecords,
): Steps<SnapshotResult> {
  if (!previous) return createSnapshot(records, revision);
  if (replaced?.base === previous.revision) {
    const built = yield* replaceInSteps(previous, records, revision, replaced);
    if (built) return built;
  }
  const maps = {} as Record<Collection, ReadonlyMap<string, AnyRecord>>;
  const changedClusters: Cluster[] = [];
  const goneClusters: Cluster[] = [];
  for (const collection of COLLECTIONS) {
    const old = previous[collection] as ReadonlyMap<string, AnyRecord>;
    const list = records[collection] as AnyRecord[];
    const changed: AnyRecord[] = [];
    const ids = new Set<string>();
    let kept = 0;
    for (const record of list) {
      if (old.get(record.id) === record) kept++;
      else changed.push(record);
      ids.add(record.id);
      if (ids.size % PER_STEP === 0) yield;
    }
    // A record listed twice (even the same object twice): createSnapshot says which.
    if (ids.size !== list.length) return createSnapshot(records, revision);
    if (changed.length === 0 && kept === old.size) {
      maps[collection] = old;
      continue;
    }
    const removed = old.size - kept - changed.filter((r) => old.has(r.id)).length;
    if (changed.length + removed > Math.max(INCREMENTAL_MIN, INCREMENTAL_SHARE * old.size))
      return createSnapshot(records, revision);
    const changes: [string, AnyRecord | null][] = [];
    const removedIds: string[] = [];
    if (removed > 0) {
      let looked = 0;
      for (const [id, record] of old) {
        if (++looked % PER_STEP === 0) yield;
        if (ids.has(id)) continue;
        changes.push([id, null]);
        removedIds.push(id);
        if (collection === 'clusters') goneClusters.push(record as Cluster);
      }
    }
    const addedIds: string[] = [];
    for (const record of changed) {
      const before = old.get(record.id);
      if (before && collection === 'clusters') goneClusters.push(before as Cluster);
      if (!before) addedIds.push(record.id);
      changes.push([record.id, freeze(record)]);
      if (collection === 'clusters') changedClusters.push(record as Cluster);
    }
    maps[collection] = yield* LayeredMap.withAllInSteps(old, changes);
    carryIdScan(old, maps[collection], addedIds, removedIds);
  }
  return yield* withClustersByDns(previous, maps, changedClusters, goneClusters, records, revision);
}

/**
 * The snapshot of `records` made from `previous` when they are its records with `replaced` put
 * in place: no walk of the collections. Undefined when `replaced` is not that (an id it names is
 * not in `previous`), or when it is so large that building anew costs as much.
 */
function* replaceInSteps(
  previous: Snapshot,
  records: RecordSets,
  revision: string,
  replaced: ReplacedRecords,
): Steps<SnapshotResult | undefined> {
  const maps = {} as Record<Collection, ReadonlyMap<string, AnyRecord>>;
  const changedClusters: Cluster[] = [];
  const goneClusters: Cluster[] = [];
  for (const collection of COLLECTIONS) {
    const old = previous[collection] as ReadonlyMap<string, AnyRecord>;
    const list = replaced.records[collection] ?? [];
    if (list.length > Math.max(INCREMENTAL_MIN, INCREMENTAL_SHARE * old.size)) return undefined;
    const changes: [string, AnyRecord][] = [];
    for (const record of list) {
      const before = old.get(record.id);
      if (before === undefined) return undefined;
      if (before === record) continue;
      changes.push([record.id, freeze(record)]);
      if (collection === 'clusters') {
        goneClusters.push(before as Cluster);
        changedClusters.push(record as Cluster);
      }
    }
    maps[collection] = changes.length === 0 ? old : yield* LayeredMap.withAllInSteps(old, changes);
    carryIdScan(old, maps[collection], [], []);
  }
  return yield* withClustersByDns(previous, maps, changedClusters, goneClusters, records, revision);
}

/** The snapshot with its DNS index carried from `previous`: the gone clusters' names freed, the changed ones' taken. */
function* withClustersByDns(
  previous: Snapshot,
  maps: Record<Collection, ReadonlyMap<string, AnyRecord>>,
  changedClusters: Cluster[],
  goneClusters: Cluster[],
  records: RecordSets,
  revision: string,
): Steps<SnapshotResult> {
  let clustersByDns = previous.clustersByDns;
  if (maps.clusters !== previous.clusters) {
    // The DNS names the gone clusters held are free; each changed cluster takes its own, once.
    const changes = new Map<string, Cluster | null>();
    for (const gone of goneClusters) {
      const key = dnsKey(gone.cluster_dns);
      if (clustersByDns.get(key) === gone) changes.set(key, null);
    }
    for (const cluster of changedClusters.sort((a, b) => compareIds(a.id, b.id))) {
      const key = dnsKey(cluster.cluster_dns);
      const taken = changes.has(key) ? changes.get(key) : clustersByDns.get(key);
      if (taken || duplicateReferences(cluster).length > 0) return createSnapshot(records, revision);
      changes.set(key, cluster);
    }
    clustersByDns = yield* LayeredMap.withAllInSteps(clustersByDns, changes);
  }
  const snapshot = Object.freeze({ revision, ...(maps as Pick<Snapshot, Collection>), clustersByDns });
  return { ok: true, snapshot };
}

function freeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) freeze(child);
    Object.freeze(value);
  }
  return value;
}
