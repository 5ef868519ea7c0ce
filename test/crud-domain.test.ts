// The pure parts of crud mode: JSON Merge Patch, record ETags and If-Match, the file form of
// a record, the incremental snapshot update, and applyMutation, the one function every
// backend uses to accept or refuse a write.
import { describe, expect, it } from 'vitest';
import { parseRecordFile } from '../src/domain/config-repo.ts';
import { applyMergePatch } from '../src/domain/merge-patch.ts';
import { ifMatchSatisfied, recordEtag } from '../src/domain/record-etag.ts';
import { leadingComments, recordFileText, schemaHintLine } from '../src/domain/record-file.ts';
import type { AnyRecord, Collection } from '../src/domain/records.ts';
import { createSnapshot, type Snapshot, snapshotRecords, withRecord } from '../src/domain/snapshot.ts';
import { ApiError } from '../src/http/errors.ts';
import { applyMutation, responseSizeBound } from '../src/store/apply-mutation.ts';
import { PER_CLUSTER_ENDPOINTS } from '../src/domain/read-endpoints.ts';
import { exampleRepoData } from './helpers/backends.ts';
import type { Mutation } from '../src/store/config-store.ts';
import { canonicalSets } from './fixtures/records.ts';
import { CRUD_DATA } from './helpers/crud.ts';

function snapshotOf(raw = CRUD_DATA, revision = 'r0'): Snapshot {
  const built = createSnapshot(canonicalSets(raw), revision);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

function mutation(action: Mutation['action'], collection: Collection, id: string, apply: Mutation['apply']): Mutation {
  return { action, collection, id, apply, role: 'write' };
}

function refused(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the write was not refused');
}

describe('JSON Merge Patch (RFC 7386)', () => {
  // The examples of RFC 7386, appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j', (target, patch, expected) => {
    const before = structuredClone(target);
    expect(applyMergePatch(target, patch)).toEqual(expected);
    expect(target).toEqual(before); // pure
  });

  it('changes one key of a cluster patch and keeps the others; null removes one', () => {
    const cluster = { patches: { podinfo: { replicaCount: '2', 'ui.color': 'blue' }, traefik: { a: '1' } } };
    expect(applyMergePatch(cluster, { patches: { podinfo: { replicaCount: '3' } } })).toEqual({
      patches: { podinfo: { replicaCount: '3', 'ui.color': 'blue' }, traefik: { a: '1' } },
    });
    expect(applyMergePatch(cluster, { patches: { podinfo: { 'ui.color': null } } })).toEqual({
      patches: { podinfo: { replicaCount: '2' }, traefik: { a: '1' } },
    });
  });
});

describe('record ETag and If-Match', () => {
  const record = snapshotOf().clusters.get('c1')!;
  it('is a quoted hash of the canonical record, equal for equal records', () => {
    expect(recordEtag(record)).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(recordEtag(structuredClone(record))).toBe(recordEtag(record));
    expect(recordEtag({ ...record, environment: 'qa' })).not.toBe(recordEtag(record));
  });
  it('matches the tag, a list holding it, and *; never a weak or another tag', () => {
    const etag = recordEtag(record);
    expect(ifMatchSatisfied(etag, etag)).toBe(true);
    expect(ifMatchSatisfied(`"x", ${etag}`, etag)).toBe(true);
    expect(ifMatchSatisfied('*', etag)).toBe(true);
    expect(ifMatchSatisfied(`W/${etag}`, etag)).toBe(false);
    expect(ifMatchSatisfied('"stale"', etag)).toBe(false);
  });
});

describe('record files written by the service', () => {
  const snapshot = snapshotOf();
  const all: [Collection, AnyRecord][] = (['clusters', 'platform_components', 'namespaces', 'rolebindings'] as const).flatMap((c) =>
    [...(snapshot[c] as ReadonlyMap<string, AnyRecord>).values()].map((r): [Collection, AnyRecord] => [c, r]),
  );
  it.each(all.map(([c, r]) => [`${c}/${r.id}`, c, r] as const))('%s reads back as the same record', (_name, collection, record) => {
    const text = recordFileText(collection, record, '# yaml-language-server: $schema=../schemas/x.json\n');
    const parsed = parseRecordFile({ path: `${collection}/${record.id}.yaml`, text });
    expect(parsed?.problems).toEqual([]);
    expect(parsed?.record).toEqual(record);
    expect(text.startsWith('# yaml-language-server')).toBe(true);
    expect(text).toContain(`id: ${record.id}\n`);
  });

  it('keeps the canonical key order, leaves null overrides out and quotes every patch value', () => {
    const text = recordFileText('clusters', snapshot.clusters.get('c1')!);
    const keys = text.split('\n').filter((l) => /^[a-z_]+:/.test(l)).map((l) => l.split(':')[0]);
    expect(keys).toEqual(['id', 'cluster_name', 'cluster_dns', 'environment', 'platform_components', 'namespaces', 'rolebindings', 'patches']);
    expect(text).not.toContain('null');
    expect(text).toContain('    oci_tag: 6.7.2-hotfix\n');
    expect(text).toContain('    replicaCount: "3"\n');
    expect(text).toContain('    ui.color: "blue"\n');
  });

  it('finds the header comment block and the schema hint line', () => {
    expect(leadingComments('# a\n# b\nid: x\n# not this\n')).toBe('# a\n# b\n');
    expect(leadingComments('id: x\n')).toBe('');
    expect(schemaHintLine('# yaml-language-server: $schema=../schemas/cluster.schema.json\n# note\n')).toBe(
      '# yaml-language-server: $schema=../schemas/cluster.schema.json\n',
    );
    expect(schemaHintLine('# note\n')).toBe('');
  });
});

describe('withRecord (the snapshot after one write)', () => {
  const base = snapshotOf();
  const sets = canonicalSets(CRUD_DATA);
  const same = (a: Snapshot, b: Snapshot) => {
    for (const c of ['clusters', 'platform_components', 'namespaces', 'rolebindings'] as const) {
      expect([...a[c].keys()]).toEqual([...b[c].keys()]);
      expect([...a[c].values()]).toEqual([...b[c].values()]);
    }
    expect([...a.clustersByDns.entries()].sort()).toEqual([...b.clustersByDns.entries()].sort());
  };

  it('gives what createSnapshot gives for an added record (in id order), a replaced one and a removed one', () => {
    const added = { ...sets.clusters[0]!, id: 'b-new', cluster_dns: 'b-new.example.com' };
    const a = withRecord(base, 'clusters', 'b-new', added, 'r1');
    expect(a.ok).toBe(true);
    same((a as { snapshot: Snapshot }).snapshot, (createSnapshot({ ...sets, clusters: [...sets.clusters, added] }, 'r1') as { snapshot: Snapshot }).snapshot);
    expect([...(a as { snapshot: Snapshot }).snapshot.clusters.keys()]).toEqual(['b-new', 'c0', 'c1']);

    const moved = { ...sets.clusters[1]!, cluster_dns: 'moved.example.com' };
    const b = withRecord(base, 'clusters', moved.id, moved, 'r2') as { ok: true; snapshot: Snapshot };
    expect(b.snapshot.clustersByDns.has('moved.example.com')).toBe(true);
    expect(b.snapshot.clustersByDns.has(sets.clusters[1]!.cluster_dns.toLowerCase())).toBe(false);
    expect(b.snapshot.revision).toBe('r2');

    const c = withRecord(base, 'namespaces', 'team-b', null, 'r3') as { ok: true; snapshot: Snapshot };
    same(c.snapshot, (createSnapshot({ ...sets, namespaces: sets.namespaces.filter((n) => n.id !== 'team-b') }, 'r3') as { snapshot: Snapshot }).snapshot);
    expect(snapshotRecords(base).namespaces.map((n) => n.id)).toContain('team-b'); // the base is untouched
  });

  it('refuses a cluster_dns in use (any case, trailing dot) and a reference listed twice', () => {
    const dup = { ...sets.clusters[0]!, cluster_dns: `${sets.clusters[1]!.cluster_dns.toUpperCase()}.` };
    expect(withRecord(base, 'clusters', dup.id, dup, 'x').ok).toBe(false);
    const twice = { ...sets.clusters[0]!, namespaces: [{ id: 'team-a' }, { id: 'team-a' }] };
    const result = withRecord(base, 'clusters', twice.id, twice, 'x');
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toEqual([`clusters/${twice.id}/namespaces/1/id`]);
  });
});

describe('applyMutation', () => {
  const base = snapshotOf();
  const c1 = base.clusters.get('c1')!;

  it('applies an update, names the changed fields and builds the new snapshot at the given revision', () => {
    const applied = applyMutation(
      base,
      mutation('update', 'clusters', 'c1', (current) => applyMergePatch(current, { patches: { podinfo: { replicaCount: '4' } } })),
      'r1',
    );
    expect(applied.changedFields).toEqual(['patches']);
    expect(applied.unchanged).toBe(false);
    expect(applied.snapshot.revision).toBe('r1');
    expect(applied.snapshot.clusters.get('c1')!.patches.podinfo).toEqual({ replicaCount: '4', 'ui.color': 'blue' });
    expect(base.clusters.get('c1')!.patches.podinfo!.replicaCount).toBe('3');
  });

  it('reports an update that changes nothing as unchanged, with the same snapshot', () => {
    const applied = applyMutation(base, mutation('update', 'clusters', 'c1', (current) => current), 'r1');
    expect(applied).toMatchObject({ unchanged: true, changedFields: [] });
    expect(applied.snapshot).toBe(base);
  });

  it('lists every field of a created and of a deleted record', () => {
    const created = applyMutation(base, mutation('create', 'namespaces', 'team-c', () => ({ id: 'team-c' })), 'r1');
    expect(created.changedFields).toEqual(['id', 'labels', 'annotations']);
    expect(created.record).toEqual({ id: 'team-c', labels: {}, annotations: {} });
    const deleted = applyMutation(base, mutation('delete', 'clusters', 'c0', () => null), 'r1');
    expect(deleted.record).toBeNull();
    expect(deleted.snapshot.clusters.has('c0')).toBe(false);
  });

  it('refuses a create of an existing id (409) and a write to a missing one (404)', () => {
    expect(refused(() => applyMutation(base, mutation('create', 'clusters', 'c1', () => c1), 'r')).code).toBe('conflict');
    expect(refused(() => applyMutation(base, mutation('update', 'clusters', 'zz', () => c1), 'r')).code).toBe('not_found');
    expect(refused(() => applyMutation(base, mutation('delete', 'namespaces', 'zz', () => null), 'r')).code).toBe('not_found');
  });

  it('refuses unknown fields by name, with JSON-pointer paths (400)', () => {
    const error = refused(() => applyMutation(base, mutation('update', 'clusters', 'c1', (c) => ({ ...c, enviroment: 'dev' })), 'r'));
    expect(error.code).toBe('validation_error');
    expect(error.details).toEqual([{ path: '/enviroment', message: 'unknown field "enviroment"' }]);
  });

  it('refuses dangling references, patches of unreferenced components and duplicate references (400)', () => {
    const error = refused(() =>
      applyMutation(
        base,
        mutation('update', 'clusters', 'c1', (c) =>
          applyMergePatch(c, { platform_components: [{ id: 'nope', enabled: true }], namespaces: [{ id: 'team-a' }, { id: 'team-a' }] }),
        ),
        'r',
      ),
    );
    expect(error.code).toBe('validation_error');
    const paths = error.details!.map((d) => d.path);
    expect(paths).toContain('/namespaces/1/id');
    const more = refused(() =>
      applyMutation(base, mutation('update', 'clusters', 'c1', (c) => applyMergePatch(c, { platform_components: [{ id: 'nope', enabled: true }] })), 'r'),
    );
    expect(more.details).toEqual(
      expect.arrayContaining([
        { path: '/platform_components/0/id', message: 'references platform_components "nope", which does not exist' },
        { path: '/patches/podinfo', message: expect.stringContaining('does not reference') },
      ]),
    );
  });

  it('refuses a cluster_dns another cluster has (409), case-insensitively and with a trailing dot', () => {
    const error = refused(() =>
      applyMutation(base, mutation('update', 'clusters', 'c0', (c) => ({ ...c, cluster_dns: 'C1.K8S.example.com' })), 'r'),
    );
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('c1');
  });

  it('refuses to delete a definition clusters reference (409, naming them) or a depends_on target', () => {
    const ns = refused(() => applyMutation(base, mutation('delete', 'namespaces', 'team-a', () => null), 'r'));
    expect(ns.code).toBe('conflict');
    expect(ns.message).toContain('referenced by clusters: c1');
    const rb = refused(() => applyMutation(base, mutation('delete', 'rolebindings', 'admins', () => null), 'r'));
    expect(rb.message).toContain('c1');
    const cm = refused(() => applyMutation(base, mutation('delete', 'platform_components', 'cert-manager', () => null), 'r'));
    expect(cm.message).toBe('platform_components/cert-manager is still referenced by clusters: c1; remove those references first');
    // Once no cluster uses it, traefik's depends_on still holds it.
    const unassigned = applyMutation(
      base,
      mutation('update', 'clusters', 'c1', (c) => applyMergePatch(c, { platform_components: [{ id: 'podinfo', enabled: true }, { id: 'traefik', enabled: true }] })),
      'r1',
    ).snapshot;
    const dep = refused(() => applyMutation(unassigned, mutation('delete', 'platform_components', 'cert-manager', () => null), 'r'));
    expect(dep.code).toBe('conflict');
    expect(dep.message).toContain('depends_on of catalog entries: traefik');
    // Unreferenced and not depended on: fine.
    expect(applyMutation(base, mutation('delete', 'platform_components', 'unused', () => null), 'r').record).toBeNull();
  });

  it('refuses unknown and cyclic depends_on (400)', () => {
    const unknown = refused(() =>
      applyMutation(base, mutation('update', 'platform_components', 'podinfo', (p) => applyMergePatch(p, { depends_on: ['ghost'] })), 'r'),
    );
    expect(unknown.details).toEqual([{ path: '/depends_on/0', message: 'depends on "ghost", which is not in the catalog' }]);
    const cycle = refused(() =>
      applyMutation(base, mutation('update', 'platform_components', 'cert-manager', (p) => applyMergePatch(p, { depends_on: ['podinfo'] })), 'r'),
    );
    expect(cycle.details![0]!.message).toBe('depends_on would form a cycle: cert-manager -> podinfo -> traefik -> cert-manager');
  });

  it('refuses a catalog change that would push a cluster response over 900 KiB, but warnings never block', () => {
    const huge = refused(() =>
      applyMutation(base, mutation('update', 'platform_components', 'podinfo', (p) => ({ ...p, oci_url: `oci://x/${'y'.repeat(950_000)}` })), 'r'),
    );
    expect(huge.code).toBe('validation_error');
    expect(huge.message).toContain('cluster "c1"');
    // 101 platform components on one cluster is a warning (consumer's default limit), not an error.
    let snapshot = base;
    const ids = Array.from({ length: 101 }, (_, i) => `extra-${String(i).padStart(3, '0')}`);
    for (const id of ids) {
      snapshot = applyMutation(
        snapshot,
        mutation('create', 'platform_components', id, () => ({ id, component_path: id, component_version: '1', oci_url: 'oci://x', oci_tag: '1' })),
        'r',
      ).snapshot;
    }
    const many = applyMutation(
      snapshot,
      mutation('update', 'clusters', 'c0', (c) => applyMergePatch(c, { platform_components: ids.map((id) => ({ id, enabled: true })) })),
      'r',
    );
    expect(many.record).toMatchObject({ id: 'c0' });
  });

  it('bounds a cluster answer from above without merging it (so most clusters skip the exact size check)', () => {
    const example = createSnapshot(exampleRepoData() as never, 'x');
    for (const snapshot of [base, (example as { snapshot: Snapshot }).snapshot]) {
      for (const [collection, endpoint] of [['platform_components', 'platform-components'], ['namespaces', 'namespaces'], ['rolebindings', 'rolebindings']] as const) {
        const bound = responseSizeBound(snapshot, collection);
        for (const cluster of snapshot.clusters.values()) {
          const exact = Buffer.byteLength(JSON.stringify({ inputs: PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster) }));
          expect(bound(cluster), `${cluster.id} ${endpoint}`).toBeGreaterThanOrEqual(exact);
          expect(bound(cluster)).toBeLessThan(exact * 4 + 1024);
        }
      }
    }
  });

  it('refuses an id in the body that differs from the path', () => {
    const error = refused(() => applyMutation(base, mutation('update', 'namespaces', 'team-a', (n) => ({ ...n, id: 'team-z' })), 'r'));
    expect(error.details).toEqual([{ path: '/id', message: 'must be "team-a"' }]);
  });
});
