// updateSnapshot builds a revision's snapshot from the one before it; whatever the change, the
// result must be exactly createSnapshot's on the same records (same maps in the same order,
// same refusals), or a reload would serve something a restart would not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyRecord, Cluster, RecordSets } from '../../src/domain/records.ts';
import { COLLECTIONS } from '../../src/domain/records.ts';
import { createSnapshot, type Snapshot } from '../../src/domain/snapshot.ts';
import { type ReplacedRecords, updateSnapshot, updateSnapshotInSteps } from '../../src/domain/snapshot-update.ts';
import { LayeredMap } from '../../src/domain/layered-map.ts';
import { baselineView } from '../../src/domain/baseline.ts';
import { guardVerdict } from '../../src/domain/shrink-guard.ts';
import { analyzeFleet, analyzeFleetAfresh } from '../../src/domain/rules/fleet-analysis.ts';
import { idsNotPortable } from '../../src/domain/rules/portable-ids.ts';
import { receiverUrlProblem, receiverUrlProblems } from '../../src/domain/rules/receiver-url.ts';
import { parseReceiverHosts, type ReceiverHosts } from '../../src/domain/receiver-hosts.ts';

import { applyEdits, baseRecords, type Edit, editArb, expectSameResult, makeRecord } from '../helpers/record-sets.ts';

const HOSTS = parseReceiverHosts('*.k8s.example.com') as ReceiverHosts;

/** What a loader would say of `after`: `before`'s records with some put in place, when that is all that changed. */
function replacedOf(before: RecordSets, after: RecordSets, base: string): ReplacedRecords | undefined {
  const records: ReplacedRecords['records'] = {};
  for (const collection of COLLECTIONS) {
    const a = before[collection] as AnyRecord[];
    const b = after[collection] as AnyRecord[];
    if (a.length !== b.length || a.some((record, i) => record.id !== b[i].id)) return undefined;
    const changed = b.filter((record, i) => record !== a[i]);
    if (changed.length > 0) records[collection] = changed;
  }
  return { base, records };
}

/** Edits that keep every id: what a loader can put in place. */
const inPlaceEditArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), collection: fc.constantFrom(...COLLECTIONS), at: fc.nat(200) }),
  fc.record({ kind: fc.constantFrom('dnsClash' as const, 'repeatReference' as const), at: fc.nat(200) }),
);

describe('updateSnapshot', () => {
  it('gives exactly what createSnapshot gives, over any sequence of revisions', () => {
    fc.assert(
      fc.property(fc.array(fc.array(editArb, { maxLength: 40 }), { minLength: 1, maxLength: 5 }), (revisions) => {
        let records = baseRecords();
        const first = createSnapshot(records, 'r0');
        if (!first.ok) throw new Error('the base records are valid');
        let previous: Snapshot = first.snapshot;
        idsNotPortable(previous);
        let previousRecords = records;
        revisions.forEach((edits, i) => {
          records = applyEdits(records, edits, i + 1);
          const incremental = updateSnapshot(previous, records, `r${i + 1}`);
          expectSameResult(incremental, createSnapshot(records, `r${i + 1}`));
          // Told which records were put in place (what the loader knows), the same snapshot.
          const replaced = replacedOf(previousRecords, records, previous.revision);
          if (replaced) expectSameResult(updateSnapshot(previous, records, `r${i + 1}`, replaced), incremental);
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
          if (incremental.ok) {
            previous = incremental.snapshot;
            previousRecords = records;
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('told which records were put in place, builds the same snapshot without walking the collections', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(inPlaceEditArb, { maxLength: 12 }), { minLength: 1, maxLength: 5 }),
        (revisions) => {
          let records = baseRecords();
          const first = createSnapshot(records, 'r0');
          if (!first.ok) throw new Error('the base records are valid');
          let previous: Snapshot = first.snapshot;
          revisions.forEach((edits, i) => {
            const next = applyEdits(records, edits, i + 1);
            const replaced = replacedOf(records, next, previous.revision)!;
            const told = updateSnapshot(previous, next, `r${i + 1}`, replaced);
            expectSameResult(told, createSnapshot(next, `r${i + 1}`));
            // Told of another base, the snapshot is built by the walk: the same again.
            expectSameResult(updateSnapshot(previous, next, `r${i + 1}`, { ...replaced, base: 'other' }), told);
            if (told.ok) {
              const analysis = analyzeFleet(told.snapshot);
              expect(analysis.problems).toEqual(analyzeFleetAfresh(told.snapshot).problems);
              expect(analysis.total).toBe(analyzeFleetAfresh(told.snapshot).total);
              previous = told.snapshot;
              records = next;
            }
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('told of one cluster put in place, layers both its maps over the ones before: one id, one DNS name differ', () => {
    const records = baseRecords();
    const first = createSnapshot(records, 'r0');
    if (!first.ok) throw new Error('the base records are valid');
    const renamed = { ...records.clusters[7], cluster_name: 'renamed' };
    const next = { ...records, clusters: records.clusters.map((c, n) => (n === 7 ? renamed : c)) };
    const told = updateSnapshot(first.snapshot, next, 'r1', { base: 'r0', records: { clusters: [renamed] } });
    if (!told.ok) throw new Error('a renamed cluster is valid');
    expect(told.snapshot.clusters.get('cluster-7')).toBe(renamed);
    expect(LayeredMap.differingKeys(first.snapshot.clusters, told.snapshot.clusters)).toEqual(new Set(['cluster-7']));
    expect(LayeredMap.differingKeys(first.snapshot.clustersByDns, told.snapshot.clustersByDns)).toEqual(
      new Set(['c7.example.com']),
    );
    expect(told.snapshot.namespaces).toBe(first.snapshot.namespaces);
  });

  it('walks the collections after all when told of a record its base does not have', () => {
    const records = baseRecords();
    const first = createSnapshot(records, 'r0');
    if (!first.ok) throw new Error('the base records are valid');
    const added = makeRecord('namespaces', 99, 1);
    const next = { ...records, namespaces: [...records.namespaces, added] } as RecordSets;
    const told = updateSnapshot(first.snapshot, next, 'r1', { base: 'r0', records: { namespaces: [added] } });
    expectSameResult(told, createSnapshot(next, 'r1'));
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
