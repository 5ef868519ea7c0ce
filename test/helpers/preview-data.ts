// A small fleet for the preview of change sets, and two change sets: a catalog bump that
// reaches three of its five clusters, and one that empties two clusters' namespace lists.
import type { DataSet } from './backends.ts';

export const component = (id: string, version: string) => ({
  id,
  component_path: id,
  component_version: version,
  oci_url: `oci://ghcr.io/example/${id}`,
  oci_tag: version,
});
const cluster = (id: string, environment: string, components: object[], namespaces: string[]) => ({
  id,
  cluster_name: id,
  cluster_dns: `${id}.k8s.example.com`,
  environment,
  platform_components: components,
  namespaces: namespaces.map((ns) => ({ id: ns })),
});

/**
 * Five clusters: podinfo on two prod clusters and on qa-1 (which pins its tag); team-x is the only namespace of prod-1
 * and prod-2.
 */
export const PREVIEW_DATA: DataSet = {
  clusters: [
    cluster(
      'prod-1',
      'prod',
      [
        { id: 'podinfo', enabled: true },
        { id: 'traefik', enabled: true },
      ],
      ['team-x'],
    ),
    cluster('prod-2', 'prod', [{ id: 'podinfo', enabled: true }], ['team-x']),
    cluster('qa-1', 'qa', [{ id: 'podinfo', enabled: true, oci_tag: '6.7.1-hotfix' }], ['team-a']),
    cluster('dev-1', 'dev', [{ id: 'traefik', enabled: true }], ['team-a']),
    cluster('uat-1', 'uat', [{ id: 'traefik', enabled: true }], ['team-a']),
  ],
  platform_components: [component('podinfo', '6.7.1'), component('traefik', '33.0.0')],
  namespaces: [{ id: 'team-a' }, { id: 'team-x', labels: { team: 'x' } } as { id: string }],
  rolebindings: [],
  rollouts: [],
};

export const BUMP = {
  message: 'podinfo 6.8.0',
  writes: [
    {
      op: 'patch',
      collection: 'platform_components',
      id: 'podinfo',
      patch: { component_version: '6.8.0', oci_tag: '6.8.0' },
    },
  ],
};
export const DROP_TEAM_X = {
  message: 'team-x leaves',
  writes: [
    { op: 'patch', collection: 'clusters', id: 'prod-1', patch: { namespaces: [] } },
    { op: 'patch', collection: 'clusters', id: 'prod-2', patch: { namespaces: [] } },
    { op: 'delete', collection: 'namespaces', id: 'team-x' },
  ],
};
