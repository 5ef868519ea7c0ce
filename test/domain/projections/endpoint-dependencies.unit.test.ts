// endpointDependencies names what a per-cluster response is made from; the response cache
// reuses a body while these are the same objects, so the list must cover everything the
// projection reads and nothing that does not change the response.
import { describe, expect, it } from 'vitest';
import {
  endpointDependencies,
  PER_CLUSTER_ENDPOINTS,
  type PerClusterEndpoint,
  perClusterInputs,
} from '../../../src/domain/projections/index.ts';
import type { Cluster, RecordSets } from '../../../src/domain/records.ts';
import { createSnapshot, type Snapshot, withRecord } from '../../../src/domain/snapshot.ts';

const CLUSTER: Cluster = {
  id: 'c1',
  cluster_name: 'one',
  cluster_dns: 'c1.example.com',
  environment: 'prod',
  credential_generation: 0,
  receiver_url: null,
  platform_components: [
    { id: 'b', enabled: true },
    { id: 'missing', enabled: true },
    { id: 'a', enabled: false, oci_tag: 'hotfix' },
  ],
  namespaces: [{ id: 'ns-2' }, { id: 'ns-1' }],
  rolebindings: [{ id: 'rb-1' }],
  patches: { a: { replicas: '2' } },
};

const component = (id: string, tag = '1.0.0') => ({
  id,
  component_path: `charts/${id}`,
  component_version: tag,
  oci_url: `oci://registry.example.com/${id}`,
  oci_tag: tag,
  cluster_env_enabled: false,
  depends_on: [],
});

function records(): RecordSets {
  return {
    clusters: [
      structuredClone(CLUSTER),
      {
        ...structuredClone(CLUSTER),
        id: 'c2',
        cluster_dns: 'c2.example.com',
        platform_components: [],
        namespaces: [],
        rolebindings: [],
        patches: {},
      },
    ],
    platform_components: [component('a'), component('b'), component('unused')],
    namespaces: [
      { id: 'ns-1', labels: {}, annotations: {} },
      { id: 'ns-2', labels: { team: 'two' }, annotations: {} },
      { id: 'ns-3', labels: {}, annotations: {} },
    ],
    rolebindings: [{ id: 'rb-1', role: 'view', subjects: [] }],
    rollouts: [],
  };
}

function snapshotOf(sets: RecordSets): Snapshot {
  const result = createSnapshot(sets, 'r1');
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.snapshot;
}

function changed(
  snapshot: Snapshot,
  ...args: Parameters<typeof withRecord> extends [Snapshot, ...infer R] ? R : never
): Snapshot {
  const result = withRecord(snapshot, ...args);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.snapshot;
}

const sameObjects = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

describe('endpointDependencies', () => {
  it(
    'is the cluster, then the definition of each reference of the endpoint in reference order (undefined when ' +
      'missing)',
    () => {
      const snapshot = snapshotOf(records());
      const cluster = snapshot.clusters.get('c1')!;
      const pc = snapshot.platform_components;
      expect(endpointDependencies(snapshot, cluster, 'platform-components')).toEqual([
        cluster,
        pc.get('b'),
        undefined,
        pc.get('a'),
      ]);
      const deps = endpointDependencies(snapshot, cluster, 'platform-components');
      expect(deps[0]).toBe(cluster);
      expect(deps[1]).toBe(pc.get('b'));
      expect(deps[3]).toBe(pc.get('a'));
      expect(endpointDependencies(snapshot, cluster, 'namespaces')).toEqual([
        cluster,
        snapshot.namespaces.get('ns-2'),
        snapshot.namespaces.get('ns-1'),
      ]);
      expect(endpointDependencies(snapshot, cluster, 'rolebindings')).toEqual([
        cluster,
        snapshot.rolebindings.get('rb-1'),
      ]);
      expect(endpointDependencies(snapshot, snapshot.clusters.get('c2')!, 'namespaces')).toEqual([
        snapshot.clusters.get('c2'),
      ]);
    },
  );

  it('stays the same objects when records the cluster does not reference change', () => {
    const before = snapshotOf(records());
    const after = [
      changed(before, 'platform_components', 'unused', component('unused', '2.0.0'), 'r2'),
      changed(before, 'namespaces', 'ns-3', { id: 'ns-3', labels: { x: 'y' }, annotations: {} }, 'r2'),
      changed(before, 'clusters', 'c2', { ...before.clusters.get('c2')!, cluster_name: 'renamed' }, 'r2'),
    ];
    for (const snapshot of after) {
      for (const endpoint of ENDPOINTS) {
        const cluster = snapshot.clusters.get('c1')!;
        expect(
          sameObjects(
            endpointDependencies(before, before.clusters.get('c1')!, endpoint),
            endpointDependencies(snapshot, cluster, endpoint),
          ),
        ).toBe(true);
      }
    }
  });

  it(
    'differs exactly where the response can differ: the cluster, a referenced definition, a definition appearing ' +
      'for a dangling reference',
    () => {
      const before = snapshotOf(records());
      const c1 = before.clusters.get('c1')!;
      const deps = (snapshot: Snapshot, endpoint: PerClusterEndpoint) =>
        endpointDependencies(snapshot, snapshot.clusters.get('c1')!, endpoint);
      const differs = (snapshot: Snapshot) => ENDPOINTS.filter((e) => !sameObjects(deps(before, e), deps(snapshot, e)));

      expect(differs(changed(before, 'clusters', 'c1', { ...c1, cluster_name: 'renamed' }, 'r2'))).toEqual(ENDPOINTS);
      expect(differs(changed(before, 'platform_components', 'a', component('a', '1.1.0'), 'r2'))).toEqual([
        'platform-components',
      ]);
      expect(differs(changed(before, 'platform_components', 'missing', component('missing'), 'r2'))).toEqual([
        'platform-components',
      ]);
      expect(differs(changed(before, 'platform_components', 'b', null, 'r2'))).toEqual(['platform-components']);
      expect(
        differs(changed(before, 'namespaces', 'ns-1', { id: 'ns-1', labels: { new: 'label' }, annotations: {} }, 'r2')),
      ).toEqual(['namespaces']);
      expect(
        differs(changed(before, 'rolebindings', 'rb-1', { id: 'rb-1', role: 'edit', subjects: [] }, 'r2')),
      ).toEqual(['rolebindings']);
    },
  );

  it('covers what the projection reads: equal dependencies give equal inputs', () => {
    const before = snapshotOf(records());
    const after = changed(before, 'platform_components', 'unused', component('unused', '9.9.9'), 'r2');
    for (const endpoint of ENDPOINTS) {
      expect(perClusterInputs(after, after.clusters.get('c1')!, endpoint)).toEqual(
        perClusterInputs(before, before.clusters.get('c1')!, endpoint),
      );
    }
  });
});
