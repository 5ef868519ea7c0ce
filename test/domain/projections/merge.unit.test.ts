import { describe, expect, it } from 'vitest';
import { clusterSummaryInputs, perClusterInputs } from '../../../src/domain/projections/index.ts';
import { createSnapshot, type Snapshot } from '../../../src/domain/snapshot.ts';
import { canonicalSets, catalog, clusters, namespaces, rolebindings } from '../../fixtures/records.ts';

function snapshot(): Snapshot {
  const built = createSnapshot(canonicalSets({ clusters, platform_components: catalog, namespaces, rolebindings }), 'rev-1');
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

const s = snapshot();
const c1 = s.clusters.get('c1')!;
const c0 = s.clusters.get('c0')!;

describe('platform-components merge', () => {
  const inputs = perClusterInputs(s, c1, 'platform-components') as any[];
  const byId = Object.fromEntries(inputs.map((i) => [i.id, i]));

  it('produces one input per reference in the order of the cluster record, skipping ids missing from the catalog', () => {
    expect(inputs.map((i) => i.id)).toEqual(['podinfo', 'cert-manager', 'traefik']);
  });

  it('passes id and enabled through', () => {
    expect(byId['cert-manager'].enabled).toBe(false);
    expect(byId.podinfo.enabled).toBe(true);
  });

  it('uses a non-null component_path override, else the catalog path', () => {
    expect(byId.traefik.component_path).toBe('charts/traefik-fork');
    expect(byId.podinfo.component_path).toBe('podinfo'); // explicit null
    expect(byId['cert-manager'].component_path).toBe('cert-manager'); // field absent
  });

  it('uses a non-null oci_tag override (a hotfix), else the catalog tag', () => {
    expect(byId.podinfo.source.oci_tag).toBe('6.7.2-hotfix');
    expect(byId.traefik.source.oci_tag).toBe('33.0.0'); // explicit null
    expect(byId['cert-manager'].source.oci_tag).toBe('v1.16.2'); // absent
  });

  it('takes component_version, cluster_env_enabled, oci_url and depends_on from the catalog, with defaults', () => {
    expect(byId.traefik).toMatchObject({
      component_version: 'latest',
      cluster_env_enabled: true,
      depends_on: ['cert-manager'],
      source: { oci_url: 'https://traefik.github.io/charts' },
    });
    expect(byId.podinfo.depends_on).toEqual([]);
    expect(byId.podinfo.cluster_env_enabled).toBe(false);
  });

  it('takes patches from the cluster by component id, {} when none, values untouched', () => {
    expect(byId.podinfo.patches).toEqual({ 'ui.message': 'Grüße «prod» — it\'s "live"', replicaCount: '3' });
    expect(byId.traefik.patches).toEqual({});
  });

  it('carries the cluster block and every documented field in a fixed order', () => {
    expect(Object.keys(byId.podinfo)).toEqual([
      'id', 'component_path', 'component_version', 'cluster_env_enabled', 'depends_on', 'enabled', 'patches', 'cluster', 'source',
    ]);
    expect(byId.podinfo.cluster).toEqual({ name: 'cluster-one', dns: 'c1.k8s.example.com', environment: 'prod' });
    expect(Object.keys(byId.podinfo.source)).toEqual(['oci_url', 'oci_tag']);
  });

  it('gives an empty list for a cluster with no references', () => {
    expect(perClusterInputs(s, c0, 'platform-components')).toEqual([]);
  });

  it('does not share objects between inputs and the snapshot', () => {
    const again = perClusterInputs(s, c1, 'platform-components') as any[];
    again[0].patches.replicaCount = 'changed';
    expect(s.clusters.get('c1')!.patches.podinfo!.replicaCount).toBe('3');
  });
});

describe('namespaces merge', () => {
  it('resolves ids in the cluster order, skips missing definitions, adds the cluster block', () => {
    const inputs = perClusterInputs(s, c1, 'namespaces');
    expect(inputs).toEqual([
      { id: 'team-b', labels: {}, annotations: {}, cluster: { name: 'cluster-one', dns: 'c1.k8s.example.com', environment: 'prod' } },
      {
        id: 'team-a',
        labels: { team: 'a', 'app.kubernetes.io/part-of': 'platform' },
        annotations: { owner: 'Zoë "the lead" O\'Neil' },
        cluster: { name: 'cluster-one', dns: 'c1.k8s.example.com', environment: 'prod' },
      },
    ]);
  });
  it('is empty for a cluster without namespaces', () => {
    expect(perClusterInputs(s, c0, 'namespaces')).toEqual([]);
  });
});

describe('rolebindings merge', () => {
  it('resolves ids in the cluster order, skips missing definitions, keeps subjects', () => {
    const inputs = perClusterInputs(s, c1, 'rolebindings') as any[];
    expect(inputs.map((i) => i.id)).toEqual(['viewers', 'admins']);
    expect(inputs[0]).toEqual({ id: 'viewers', role: 'view', subjects: [], cluster: { name: 'cluster-one', dns: 'c1.k8s.example.com', environment: 'prod' } });
    expect(inputs[1].subjects).toEqual([
      { kind: 'Group', name: 'platform', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'ServiceAccount', name: 'ci', apiGroup: '' },
    ]);
  });
});

describe('clusters listing', () => {
  it('lists every cluster sorted by id with the four summary fields', () => {
    expect(clusterSummaryInputs(s)).toEqual([
      { id: 'c0', cluster_name: 'bare', cluster_dns: 'Bare.Example.COM', environment: 'dev' },
      { id: 'c1', cluster_name: 'cluster-one', cluster_dns: 'c1.k8s.example.com', environment: 'prod' },
    ]);
  });
});

describe('snapshot', () => {
  it('finds clusters by DNS case-insensitively and without one trailing dot', () => {
    expect(s.clustersByDns.get('bare.example.com')?.id).toBe('c0');
  });

  it('is frozen: records cannot be changed after publishing', () => {
    expect(() => {
      (s.clusters.get('c1') as any).cluster_name = 'x';
    }).toThrow();
  });

  it('refuses two clusters with one DNS name (case-insensitive), naming both', () => {
    const sets = canonicalSets({
      clusters: [
        { id: 'a', cluster_name: 'a', cluster_dns: 'x.example.com', environment: 'dev' },
        { id: 'b', cluster_name: 'b', cluster_dns: 'X.example.com', environment: 'dev' },
      ],
    });
    const built = createSnapshot(sets, 'r');
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.problems[0]!.message).toContain('already used by cluster "a"');
  });

  it('refuses a reference listed twice (the consumer rejects duplicate input ids)', () => {
    const sets = canonicalSets({
      clusters: [{ id: 'a', cluster_name: 'a', cluster_dns: 'a.example.com', environment: 'dev', namespaces: [{ id: 'n' }, { id: 'n' }] }],
    });
    const built = createSnapshot(sets, 'r');
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.problems[0]).toMatchObject({ code: 'duplicate_reference', at: { record: { collection: 'clusters', id: 'a' }, field: '/namespaces/1/id' } });
  });
});
