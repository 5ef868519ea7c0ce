// updateSnapshot builds a revision's snapshot from the one before it; whatever the change, the
// result must be exactly createSnapshot's on the same records (same maps in the same order,
// same refusals), or a reload would serve something a restart would not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyRecord, Cluster, Collection, RecordSets } from '../../src/domain/records.ts';
import { COLLECTIONS } from '../../src/domain/records.ts';
import { createSnapshot, type Snapshot, type SnapshotResult } from '../../src/domain/snapshot.ts';
import { updateSnapshot, updateSnapshotInSteps } from '../../src/domain/snapshot-update.ts';
import { LayeredMap } from '../../src/domain/layered-map.ts';
import { baselineView } from '../../src/domain/baseline.ts';
import { guardVerdict } from '../../src/domain/shrink-guard.ts';
import { analyzeFleet, analyzeFleetAfresh } from '../../src/domain/rules/fleet-analysis.ts';
import { idsNotPortable } from '../../src/domain/rules/portable-ids.ts';
import { receiverUrlProblem, receiverUrlProblems } from '../../src/domain/rules/receiver-url.ts';
import { parseReceiverHosts, type ReceiverHosts } from '../../src/domain/receiver-hosts.ts';

const HOSTS = parseReceiverHosts('*.k8s.example.com') as ReceiverHosts;

const SIZES: Record<Collection, number> = {
  clusters: 80,
  platform_components: 12,
  namespaces: 6,
  rolebindings: 4,
  rollouts: 3,
};

function makeRecord(collection: Collection, n: number, version = 0): AnyRecord {
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

function baseRecords(): RecordSets {
  const sets = {} as Record<Collection, AnyRecord[]>;
  for (const collection of COLLECTIONS)
    sets[collection] = Array.from({ length: SIZES[collection] }, (_, n) => makeRecord(collection, n));
  return sets as unknown as RecordSets;
}

/** Ids the portability rules look at (capitals, Windows device names), a few of them twins. */
const IDS_OF_NOTE = ['CON', 'con.x', 'Nul', 'Item', 'ITEM', 'item', 'iTem'];

type Edit =
  | {
      kind: 'replace' | 'remove' | 'add' | 'addOfNote' | 'removeOfNote' | 'repeat' | 'repeatSame';
      collection: Collection;
      at: number;
    }
  | { kind: 'dnsClash' | 'repeatReference'; at: number };

const collectionArb = fc.constantFrom(...COLLECTIONS);
const editArb: fc.Arbitrary<Edit> = fc.oneof(
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
function applyEdits(records: RecordSets, edits: Edit[], version: number): RecordSets {
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

function expectSameResult(incremental: SnapshotResult, full: SnapshotResult): void {
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

describe('updateSnapshot', () => {
  it('gives exactly what createSnapshot gives, over any sequence of revisions', () => {
    fc.assert(
      fc.property(fc.array(fc.array(editArb, { maxLength: 40 }), { minLength: 1, maxLength: 5 }), (revisions) => {
        let records = baseRecords();
        const first = createSnapshot(records, 'r0');
        if (!first.ok) throw new Error('the base records are valid');
        let previous: Snapshot = first.snapshot;
        idsNotPortable(previous);
        revisions.forEach((edits, i) => {
          records = applyEdits(records, edits, i + 1);
          const incremental = updateSnapshot(previous, records, `r${i + 1}`);
          expectSameResult(incremental, createSnapshot(records, `r${i + 1}`));
          // The fleet's analysis, kept up to date from the revision before, equals one made afresh.
          const built = incremental.ok ? incremental.snapshot : incremental.partial;
          const fleet = analyzeFleet(built);
          const afresh = analyzeFleetAfresh(built);
          expect(fleet.problems).toEqual(afresh.problems);
          expect(new Map(fleet.counts)).toEqual(new Map(afresh.counts)); // a lookup table: order aside
          expect(fleet.total).toBe(afresh.total);
          expect(fleet.listBytes).toBe(afresh.listBytes);
          const used = (uses: ReadonlyMap<string, number>) => [...uses].filter(([, n]) => n > 0).sort();
          expect(used(fleet.componentUses)).toEqual(used(afresh.componentUses));
          // The receiver_urls' problems, looked at where the clusters differ, equal a walk of them all.
          expect(receiverUrlProblems(built, HOSTS)).toEqual(
            [...built.clusters.values()].flatMap((c) => receiverUrlProblem(c, HOSTS) ?? []),
          );
          // The look at ids, carried over from the revision before, equals one made afresh.
          const full = createSnapshot(records, `r${i + 1}`);
          expect(idsNotPortable(built)).toEqual(idsNotPortable(full.ok ? full.snapshot : full.partial));
          // The shrink guard looks only at the clusters that differ when it can tell which: the same verdict.
          const view = baselineView(previous);
          expect(guardVerdict(built, view, false)).toEqual(
            guardVerdict(built, { ...view, snapshot: undefined }, false),
          );
          if (incremental.ok) previous = incremental.snapshot;
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the maps of the collections that did not change, so per-cluster results stay remembered', () => {
    const records = baseRecords();
    const first = createSnapshot(records, 'r0');
    if (!first.ok) throw new Error('the base records are valid');
    const next = applyEdits(records, [{ kind: 'replace', collection: 'clusters', at: 3 }], 1);
    const result = updateSnapshot(first.snapshot, next, 'r1');
    if (!result.ok) throw new Error('a replaced cluster is valid');
    expect(result.snapshot.platform_components).toBe(first.snapshot.platform_components);
    expect(result.snapshot.namespaces).toBe(first.snapshot.namespaces);
    expect(result.snapshot.clusters).not.toBe(first.snapshot.clusters);
    expect(result.snapshot.clusters.get('cluster-4')).toBe(first.snapshot.clusters.get('cluster-4'));
  });

  it('walks a large fleet in steps, and the changed map is layered over the one before (what differs is known)', () => {
    const many = (n: number) => makeRecord('clusters', n) as Cluster;
    const records = { ...baseRecords(), clusters: Array.from({ length: 12_000 }, (_, n) => many(n)) };
    const first = createSnapshot(records, 'r0');
    if (!first.ok) throw new Error('the records are valid');
    const next = { ...records, clusters: records.clusters.map((c, n) => (n === 7 ? makeRecord('clusters', 7, 1) : c)) };
    const steps = updateSnapshotInSteps(first.snapshot, next as RecordSets, 'r1');
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(2);
    expectSameResult(step.value, createSnapshot(next as RecordSets, 'r1'));
    if (!step.value.ok) throw new Error('a replaced cluster is valid');
    expect(LayeredMap.differingKeys(first.snapshot.clusters, step.value.snapshot.clusters)).toEqual(
      new Set(['cluster-7']),
    );
  });

  it('the shrink guard finds the emptied clusters among those that differ, as a walk of all finds them', () => {
    const records = baseRecords();
    const first = createSnapshot(records, 'r0');
    if (!first.ok) throw new Error('the base records are valid');
    const emptied = new Set(['cluster-3', 'cluster-41', 'cluster-9']);
    const clusters = records.clusters.map((c) =>
      emptied.has(c.id) ? { ...c, platform_components: [], namespaces: [] } : c,
    );
    const result = updateSnapshot(first.snapshot, { ...records, clusters }, 'r1');
    if (!result.ok) throw new Error('emptied clusters are valid');
    const view = baselineView(first.snapshot);
    const verdict = guardVerdict(result.snapshot, view, false);
    expect(verdict.emptied_clusters.map((e) => e.cluster)).toEqual(['cluster-3', 'cluster-41', 'cluster-9']);
    expect(verdict).toEqual(guardVerdict(result.snapshot, { ...view, snapshot: undefined }, false));
  });
});
