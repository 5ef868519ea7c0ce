// The web UI's change set (ui/src/edits/): edits kept as operations on the record they were
// made on, one write per record with the ETag it was based on, a JSON Merge Patch of only what
// changed, edits that cancel out dropped, and a re-base onto a record someone else changed
// meanwhile. Pure code of the UI, tested here without a browser; the browser tests commit such
// sets to the real service.
import { describe, expect, it } from 'vitest';
import { whereOf } from '../../ui/src/data/problem-place.ts';
import type { ClusterRecord, NamespaceRecord, PlatformComponentRecord } from '../../ui/src/api/types.ts';
import { ChangeSet } from '../../ui/src/edits/change-set.ts';
import { applyMergePatch, mergePatch } from '../../ui/src/edits/merge-patch.ts';
import { diffRecords } from '../../ui/src/edits/record-diff.ts';
import { applyEdits, describeEdit } from '../../ui/src/edits/record-edits.ts';

const cluster: ClusterRecord = {
  id: 'c1',
  cluster_name: 'one',
  cluster_dns: 'c1.example.com',
  environment: 'prod',
  credential_generation: 0,
  receiver_url: null,
  platform_components: [
    { id: 'traefik', enabled: true, oci_tag: null, component_path: null },
    { id: 'podinfo', enabled: true, oci_tag: '6.7.2-hotfix', component_path: null },
  ],
  namespaces: [{ id: 'team-a' }],
  rolebindings: [{ id: 'admins' }],
  patches: { podinfo: { replicaCount: '3', 'ui.color': 'blue' } },
};
const podinfo: PlatformComponentRecord = {
  id: 'podinfo',
  component_path: 'podinfo',
  component_version: '6.7.1',
  oci_url: 'oci://ghcr.io/stefanprodan/charts',
  oci_tag: '6.7.1',
  cluster_env_enabled: false,
  depends_on: ['traefik'],
};

describe('a change set across records', () => {
  it('makes one patch write per record, each with the ETag it was based on, patching only what changed', () => {
    const set = new ChangeSet()
      .edit('clusters', 'c1', cluster, '"c1-etag"', {
        kind: 'patch',
        component: 'podinfo',
        key: 'replicaCount',
        value: '5',
      })
      .edit('platform_components', 'podinfo', podinfo, '"pc-etag"', {
        kind: 'field',
        field: 'component_version',
        value: '6.8.0',
      })
      .edit('platform_components', 'podinfo', podinfo, '"ignored: the first read is kept"', {
        kind: 'field',
        field: 'oci_tag',
        value: '6.8.0',
      })
      .edit('clusters', 'c1', cluster, '"ignored"', {
        kind: 'patch',
        component: 'podinfo',
        key: 'ui.color',
        value: null,
      });
    expect(set.size).toBe(2);
    expect(set.request('Podinfo 6.8.0, five replicas on c1')).toEqual({
      message: 'Podinfo 6.8.0, five replicas on c1',
      writes: [
        {
          op: 'patch',
          collection: 'clusters',
          id: 'c1',
          patch: { patches: { podinfo: { replicaCount: '5', 'ui.color': null } } },
          if_match: '"c1-etag"',
        },
        {
          op: 'patch',
          collection: 'platform_components',
          id: 'podinfo',
          patch: { component_version: '6.8.0', oci_tag: '6.8.0' },
          if_match: '"pc-etag"',
        },
      ],
    });
  });

  it('replaces an earlier edit of the same thing, and drops a record whose edits cancel out', () => {
    let set = new ChangeSet().edit('clusters', 'c1', cluster, '"e"', {
      kind: 'patch',
      component: 'podinfo',
      key: 'replicaCount',
      value: '4',
    });
    set = set.edit('clusters', 'c1', cluster, '"e"', {
      kind: 'patch',
      component: 'podinfo',
      key: 'replicaCount',
      value: '5',
    });
    expect(set.find('clusters', 'c1')!.ops).toEqual([
      { kind: 'patch', component: 'podinfo', key: 'replicaCount', value: '5' },
    ]);
    set = set.edit('clusters', 'c1', cluster, '"e"', {
      kind: 'patch',
      component: 'podinfo',
      key: 'replicaCount',
      value: '3',
    });
    expect(set.size).toBe(0);
  });

  it('creates a definition and references it in the same set; deleting what the set creates forgets it', () => {
    const namespace: NamespaceRecord = { id: 'team-new', labels: {}, annotations: {} };
    let set = new ChangeSet()
      .edit('namespaces', 'team-new', null, null, { kind: 'create', record: namespace })
      .edit('namespaces', 'team-new', null, null, { kind: 'entry', field: 'labels', key: 'team', value: 'new' })
      .edit('clusters', 'c1', cluster, '"e"', { kind: 'ref', list: 'namespaces', ref: 'team-new', present: true });
    expect(set.request('m').writes).toEqual([
      {
        op: 'create',
        collection: 'namespaces',
        id: 'team-new',
        record: { id: 'team-new', labels: { team: 'new' }, annotations: {} },
      },
      {
        op: 'patch',
        collection: 'clusters',
        id: 'c1',
        patch: { namespaces: [{ id: 'team-a' }, { id: 'team-new' }] },
        if_match: '"e"',
      },
    ]);
    set = set.edit('namespaces', 'team-new', null, null, { kind: 'delete' });
    expect(set.request('m').writes.map((w) => w.collection)).toEqual(['clusters']);
    const deleted = new ChangeSet().edit('namespaces', 'team-a', { id: 'team-a', labels: {}, annotations: {} }, '"n"', {
      kind: 'delete',
    });
    expect(deleted.request('m').writes).toEqual([
      { op: 'delete', collection: 'namespaces', id: 'team-a', if_match: '"n"' },
    ]);
  });

  it("edits a cluster's components: enabled, a tag pin, a path; removing one takes its patches along", () => {
    const { record, skipped } = applyEdits(cluster, [
      { kind: 'component', component: 'traefik', field: 'enabled', value: false },
      { kind: 'component', component: 'podinfo', field: 'oci_tag', value: '' },
      { kind: 'component', component: 'traefik', field: 'component_path', value: 'traefik-next' },
      { kind: 'component-ref', component: 'cert-manager', present: true },
    ]);
    expect(skipped).toEqual([]);
    expect((record as ClusterRecord).platform_components).toEqual([
      { id: 'traefik', enabled: false, oci_tag: null, component_path: 'traefik-next' },
      { id: 'podinfo', enabled: true, oci_tag: null, component_path: null },
      { id: 'cert-manager', enabled: true, oci_tag: null, component_path: null },
    ]);
    const removed = applyEdits(cluster, [{ kind: 'component-ref', component: 'podinfo', present: false }])
      .record as ClusterRecord;
    expect(removed.platform_components.map((ref) => ref.id)).toEqual(['traefik']);
    expect(removed.patches).toEqual({});
    expect(describeEdit({ kind: 'component', component: 'podinfo', field: 'oci_tag', value: '6.8.0' })).toBe(
      'podinfo: oci_tag 6.8.0',
    );
  });

  it('renames a patch key as a removal and an addition, one write', () => {
    const set = new ChangeSet()
      .edit('clusters', 'c1', cluster, '"e"', { kind: 'patch', component: 'podinfo', key: 'ui.color', value: null })
      .edit('clusters', 'c1', cluster, '"e"', { kind: 'patch', component: 'podinfo', key: 'ui.colour', value: 'blue' });
    expect(set.request('m').writes[0].patch).toEqual({
      patches: { podinfo: { 'ui.color': null, 'ui.colour': 'blue' } },
    });
  });
});

describe('re-basing onto a record someone changed meanwhile', () => {
  it("applies the edits again to the current record and its ETag, keeping the other person's change", () => {
    const set = new ChangeSet().edit('clusters', 'c1', cluster, '"old"', {
      kind: 'patch',
      component: 'podinfo',
      key: 'replicaCount',
      value: '5',
    });
    const theirs: ClusterRecord = { ...cluster, patches: { podinfo: { replicaCount: '3', 'ui.color': 'red' } } };
    const { set: rebased, skipped } = set.rebase('clusters', 'c1', theirs, '"new"');
    expect(skipped).toEqual([]);
    expect(rebased.request('m').writes).toEqual([
      {
        op: 'patch',
        collection: 'clusters',
        id: 'c1',
        patch: { patches: { podinfo: { replicaCount: '5' } } },
        if_match: '"new"',
      },
    ]);
    expect((rebased.current('clusters', 'c1', cluster) as ClusterRecord).patches.podinfo).toEqual({
      replicaCount: '5',
      'ui.color': 'red',
    });
  });

  it('drops the edits of a component that was removed meanwhile, and says which', () => {
    const set = new ChangeSet().edit('clusters', 'c1', cluster, '"old"', {
      kind: 'component',
      component: 'traefik',
      field: 'enabled',
      value: false,
    });
    const theirs: ClusterRecord = {
      ...cluster,
      platform_components: cluster.platform_components.filter((ref) => ref.id !== 'traefik'),
    };
    const { set: rebased, skipped } = set.rebase('clusters', 'c1', theirs, '"new"');
    expect(skipped).toEqual([{ kind: 'component', component: 'traefik', field: 'enabled', value: false }]);
    expect(rebased.size).toBe(0);
  });

  it('shows what changed meanwhile field by field, lists of records by id', () => {
    const theirs: ClusterRecord = {
      ...cluster,
      platform_components: [cluster.platform_components[0], { ...cluster.platform_components[1], oci_tag: '6.7.3' }],
      patches: { podinfo: { replicaCount: '3' } },
    };
    expect(diffRecords(cluster, theirs)).toEqual([
      { field: 'platform_components[podinfo].oci_tag', before: '6.7.2-hotfix', after: '6.7.3' },
      { field: 'patches.podinfo.ui.color', before: 'blue' },
    ]);
  });
});

describe('JSON Merge Patch (RFC 7386)', () => {
  it('is what turns the one record into the other', () => {
    const before = { a: 1, keep: { x: '1', y: '2' }, list: [1, 2], gone: true };
    const after = { a: 2, keep: { x: '1', z: '3' }, list: [1, 2, 3], added: 'yes' };
    const patch = mergePatch(before, after);
    expect(patch).toEqual({ a: 2, keep: { y: null, z: '3' }, list: [1, 2, 3], added: 'yes', gone: null });
    expect(applyMergePatch(before, patch)).toEqual(after);
  });
});

describe('where a problem is', () => {
  it("reads file:line from the diff report's places and the formatted places of the history alike", () => {
    const problem = { code: 'unknown_field', severity: 'error' as const, message: 'unknown field' };
    expect(
      whereOf({
        ...problem,
        at: {
          record: { collection: 'clusters', id: 'c1' },
          field: '/enviroment',
          file: 'clusters/c1.yaml',
          line: 2,
          column: 1,
        },
      }),
    ).toBe('clusters/c1.yaml:2:1');
    expect(whereOf({ ...problem, at: 'clusters/c1.yaml:2:1', file: 'clusters/c1.yaml', field: '/enviroment' })).toBe(
      'clusters/c1.yaml:2:1',
    );
    expect(
      whereOf({ ...problem, at: { record: { collection: 'clusters', id: 'c1' }, field: '/namespaces/0/id' } }),
    ).toBe('clusters/c1/namespaces/0/id');
  });
});
