// changedClusterIds and the diff with a rollout in the fleet. A rollout's plan is made over
// the clusters, so a write of one cluster (its environment) can move others between steps and
// change their answers though their records did not change; and the walk of a definitions
// change looks only at references to definitions that are other objects (definitionChanges),
// which holds while a rollout serves every other entry as before. Random chains of writes
// (catalog entries, the rollout's release and set, clusters, namespaces, several at once)
// against merging every cluster whole on both sides.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedClusterIds, definitionChanges } from '../../../src/domain/changed-clusters.ts';
import type { AnyRecord, PlatformComponent } from '../../../src/domain/records.ts';
import { diffSnapshots } from '../../../src/domain/revision-diff.ts';
import { createSnapshot, type RecordReplacement, type Snapshot, withRecords } from '../../../src/domain/snapshot.ts';
import { fourEnvironments, KPS, rollout, THREE_WAVES } from '../../fixtures/rollout-fleet.ts';
import { plainChangedClusters } from '../../helpers/plain-changed-clusters.ts';

const PODINFO: PlatformComponent = { ...KPS, id: 'podinfo', component_path: 'podinfo', oci_tag: '6.7.1' };

function base(): Snapshot {
  // Every third cluster uses podinfo as well, whose catalog entry no rollout changes.
  const podinfo = { id: 'podinfo', enabled: true, oci_tag: null, component_path: null };
  const clusters = fourEnvironments().map((c, i) =>
    i % 3 === 0 && c.id !== 'dev-no-kps' ? { ...c, platform_components: [...c.platform_components, podinfo] } : c,
  );
  const built = createSnapshot(
    {
      clusters,
      platform_components: [KPS, PODINFO].map((e) => ({ ...e, depends_on: [...e.depends_on] })),
      namespaces: [{ id: 'team-a', labels: { team: 'a' }, annotations: {} }],
      rolebindings: [],
      rollouts: [rollout({ waves: THREE_WAVES, released: 1 })],
    },
    'r0',
  );
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

/** One change of the kinds a walk meets, made from the revision it applies to. */
const change = fc.oneof(
  fc.record({ kind: fc.constant('catalog'), entry: fc.constantFrom(KPS.id, 'podinfo'), tag: fc.nat(3) }),
  fc.record({ kind: fc.constant('release'), released: fc.nat(3) }),
  fc.record({ kind: fc.constant('set'), tag: fc.nat(3) }),
  fc.record({ kind: fc.constant('cluster'), index: fc.nat(12), environment: fc.constantFrom('dev', 'prod') }),
  fc.record({ kind: fc.constant('namespace'), team: fc.nat(3) }),
);

type ChangeSpec = typeof change extends fc.Arbitrary<infer T> ? T : never;

function made(snapshot: Snapshot, c: ChangeSpec): RecordReplacement {
  const replacement = (collection: RecordReplacement['collection'], id: string, record: object) => ({
    collection,
    id,
    record: record as AnyRecord,
  });
  switch (c.kind) {
    case 'catalog': {
      const entry = snapshot.platform_components.get(c.entry)!;
      return replacement('platform_components', c.entry, { ...entry, oci_tag: `9.${c.tag}.0` });
    }
    case 'release':
      return replacement('rollouts', 'kps-67-5', { ...snapshot.rollouts.get('kps-67-5')!, released: c.released });
    case 'set':
      return replacement('rollouts', 'kps-67-5', {
        ...snapshot.rollouts.get('kps-67-5')!,
        set: { component_version: '68.0.0', oci_tag: `68.${c.tag}.0` },
      });
    case 'cluster': {
      const target = [...snapshot.clusters.values()][c.index];
      return replacement('clusters', target.id, { ...target, environment: c.environment });
    }
    default:
      return replacement('namespaces', 'team-a', { id: 'team-a', labels: { team: `t${c.team}` }, annotations: {} });
  }
}

describe('changedClusterIds with a rollout', () => {
  it('equals merging every cluster whole, over chains of writes of one or more records', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        (chain) => {
          let before = base();
          for (const [i, writes] of chain.entries()) {
            const changes = new Map<string, RecordReplacement>();
            for (const w of writes) {
              const c = made(before, w);
              changes.set(`${c.collection}/${c.id}`, c);
            }
            const built = withRecords(before, [...changes.values()], `r${i + 1}`);
            if (!built.ok) continue;
            const after = built.snapshot;
            const expected = plainChangedClusters(before, after);
            expect(changedClusterIds(before, after)).toEqual(expected);
            expect(diffSnapshots(before, after).clusters.map((c) => c.id)).toEqual(expected);
            before = after;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a cluster written into another environment moves the members after it to other steps', () => {
    // Released up to step 3: the canary, non-prod, and the first half of prod (50 % batches of
    // prod-ap-1, prod-eu-1, prod-eu-2 | prod-eu-3, prod-us-1, prod-us-2). prod-ap-1 moving to
    // dev leaves five in prod, cut 3 + 2: prod-eu-3 joins the released half.
    const before = withRecords(base(), [made(base(), { kind: 'release', released: 3 })], 'r1');
    if (!before.ok) throw new Error('fixture');
    const moved = withRecords(
      before.snapshot,
      [made(before.snapshot, { kind: 'cluster', index: 4, environment: 'dev' })],
      'r2',
    );
    if (!moved.ok) throw new Error('fixture');
    expect([...before.snapshot.clusters.keys()][4]).toBe('prod-ap-1');
    expect(changedClusterIds(before.snapshot, moved.snapshot)).toEqual(['prod-ap-1', 'prod-eu-3']);
    expect(diffSnapshots(before.snapshot, moved.snapshot).clusters.map((c) => c.id)).toEqual([
      'prod-ap-1',
      'prod-eu-3',
    ]);
  });

  it('names the changed definitions, and leaves the catalog unnamed while a rollout may serve it otherwise', () => {
    const before = base();
    const entry = { ...KPS, oci_tag: '9.9.9', depends_on: [] };
    const built = withRecords(
      before,
      [{ collection: 'platform_components', id: KPS.id, record: entry }] as never,
      'r1',
    );
    if (!built.ok) throw new Error('fixture');
    expect(definitionChanges(before, built.snapshot)).toEqual({
      platform_components: new Set([KPS.id]),
      namespaces: new Set(),
      rolebindings: new Set(),
    });
    const released = { ...before.rollouts.get('kps-67-5')!, released: 2 };
    const both = withRecords(
      before,
      [
        { collection: 'platform_components', id: KPS.id, record: entry },
        { collection: 'rollouts', id: 'kps-67-5', record: released },
      ] as never,
      'r2',
    );
    if (!both.ok) throw new Error('fixture');
    expect(definitionChanges(before, both.snapshot).platform_components).toBeUndefined();
  });
});
