// Record sets for the tests of building a snapshot from the one before: a small fleet with one
// record of every kind, edits of every kind a revision can make to it (fuzzed), and the check
// that an incrementally built snapshot is exactly the one createSnapshot builds.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { AnyRecord, Cluster, Collection, RecordSets } from '../../src/domain/records.ts';
import { COLLECTIONS } from '../../src/domain/records.ts';
import type { Snapshot, SnapshotResult } from '../../src/domain/snapshot.ts';

const SIZES: Record<Collection, number> = {
  clusters: 80,
  platform_components: 12,
  namespaces: 6,
  rolebindings: 4,
  rollouts: 3,
};

export function makeRecord(collection: Collection, n: number, version = 0): AnyRecord {
  switch (collection) {
    case 'clusters':
      return {
        id: `cluster-${n}`,
        cluster_name: `cluster ${n} v${version}`,
        cluster_dns: `c${n}.example.com`,
        environment: 'dev',
        credential_generation: 0,
        // Told, refused for its host, or none: the receiver_url rule's three outcomes.
        receiver_url: [null, 'https://hooks.k8s.example.com/n', 'https://elsewhere.example.org/n'][(n + version) % 3],
        platform_components: [{ id: `component-${n % 12}`, enabled: true }],
        namespaces: [{ id: `ns-${n % 6}` }],
        rolebindings: [],
        patches: {},
      } satisfies Cluster;
    case 'platform_components':
      return {
        id: `component-${n}`,
        component_path: `components/${n}`,
        component_version: `1.${version}.0`,
        oci_url: 'oci://registry.example.com/c',
        oci_tag: `v${version}`,
        cluster_env_enabled: false,
        depends_on: [],
      };
    case 'namespaces':
      return { id: `ns-${n}`, labels: { v: String(version) }, annotations: {} };
    case 'rolebindings':
      return { id: `rb-${n}`, role: `role-${version}`, subjects: [] };
    case 'rollouts':
      return {
        id: `rollout-${n}`,
        component: `component-${n}`,
        set: { oci_tag: `v${version + 1}` },
        waves: [{ name: 'dev', clusters: [], environments: ['dev'], batch: 10, soak: '0s', approval: false }],
        failure_budget: 0,
        progress_deadline: '1h',
        require_reports: false,
        released: version % 2,
        paused: false,
        approved: [],
      };
  }
}

export function baseRecords(): RecordSets {
  const sets = {} as Record<Collection, AnyRecord[]>;
  for (const collection of COLLECTIONS)
    sets[collection] = Array.from({ length: SIZES[collection] }, (_, n) => makeRecord(collection, n));
  return sets as unknown as RecordSets;
}

/** Ids the portability rules look at (capitals, Windows device names), a few of them twins. */
export const IDS_OF_NOTE = ['CON', 'con.x', 'Nul', 'Item', 'ITEM', 'item', 'iTem'];

export type Edit =
  | {
      kind: 'replace' | 'remove' | 'add' | 'addOfNote' | 'removeOfNote' | 'repeat' | 'repeatSame';
      collection: Collection;
      at: number;
    }
  | { kind: 'dnsClash' | 'repeatReference'; at: number };

const collectionArb = fc.constantFrom(...COLLECTIONS);
export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constantFrom('replace', 'remove', 'add'),
      collection: collectionArb,
      at: fc.nat(200),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('addOfNote', 'removeOfNote'),
      collection: collectionArb,
      at: fc.nat(200),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('repeat', 'repeatSame'), collection: collectionArb, at: fc.nat(200) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('dnsClash', 'repeatReference'), at: fc.nat(200) }) },
);

/** The next revision's record sets: unchanged records are the same objects, as the loader hands them out. */
export function applyEdits(records: RecordSets, edits: Edit[], version: number): RecordSets {
  const next = Object.fromEntries(COLLECTIONS.map((c) => [c, [...(records[c] as AnyRecord[])]])) as Record<
    Collection,
    AnyRecord[]
  >;
  for (const edit of edits) {
    if (!('collection' in edit)) {
      const list = next.clusters as Cluster[];
      if (list.length < 2) continue;
      const i = edit.at % list.length;
      const cluster = list[i];
      list[i] =
        edit.kind === 'dnsClash'
          ? { ...cluster, cluster_dns: list[(i + 1) % list.length].cluster_dns.toUpperCase() }
          : { ...cluster, namespaces: [...cluster.namespaces, ...cluster.namespaces.slice(0, 1)] };
      continue;
    }
    const list = next[edit.collection];
    const i = list.length === 0 ? 0 : edit.at % list.length;
    if (edit.kind === 'add') list.push(makeRecord(edit.collection, 1000 + edit.at, version));
    else if (edit.kind === 'addOfNote')
      list.push({
        ...makeRecord(edit.collection, 2000 + edit.at, version),
        id: IDS_OF_NOTE[edit.at % IDS_OF_NOTE.length],
      });
    else if (edit.kind === 'removeOfNote') {
      const noted = list.flatMap((r, index) => (IDS_OF_NOTE.includes(r.id) ? [index] : []));
      if (noted.length > 0) list.splice(noted[edit.at % noted.length], 1);
    } else if (list.length === 0) continue;
    else if (edit.kind === 'remove') list.splice(i, 1);
    else if (edit.kind === 'repeat') list.push({ ...list[i] });
    else if (edit.kind === 'repeatSame') list.push(list[i]);
    else {
      const n = Number(/\d+$/.exec(list[i].id)?.[0] ?? 0);
      const replaced = { ...makeRecord(edit.collection, n, version), id: list[i].id };
      list[i] =
        edit.collection === 'clusters' ? { ...replaced, cluster_dns: (list[i] as Cluster).cluster_dns } : replaced;
    }
  }
  return next as unknown as RecordSets;
}

export function expectSameResult(incremental: SnapshotResult, full: SnapshotResult): void {
  expect(incremental.ok).toBe(full.ok);
  if (!incremental.ok || !full.ok) {
    expect(incremental.ok ? [] : incremental.problems).toEqual(full.ok ? [] : full.problems);
    return;
  }
  const a = incremental.snapshot;
  const b = full.snapshot;
  expect(a.revision).toBe(b.revision);
  for (const collection of COLLECTIONS) expect([...a[collection].entries()]).toEqual([...b[collection].entries()]);
  const byKey = (s: Snapshot) => [...s.clustersByDns.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  expect(byKey(a)).toEqual(byKey(b));
}
