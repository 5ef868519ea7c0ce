// The pure parts of crud mode: JSON Merge Patch, record ETags and If-Match, the file form of
// a record, the incremental snapshot update, and applyWrite, the one function that accepts or
// refuses a write for every backend.
import { describe, expect, it } from 'vitest';
import { PER_CLUSTER_ENDPOINTS } from '../../../src/domain/projections/index.ts';
import type { AnyRecord, Collection } from '../../../src/domain/records.ts';
import { parseRecordFile } from '../../../src/domain/repo-layout/record-file-parse.ts';
import { leadingComments, recordFileText, schemaHintLine } from '../../../src/domain/repo-layout/record-file-text.ts';
import { responseSizeBound } from '../../../src/domain/rules/response-size.ts';
import { createSnapshot, type Snapshot, snapshotRecords, withRecord } from '../../../src/domain/snapshot.ts';
import { applyWrite } from '../../helpers/apply-write.ts';
import { applyMergePatch } from '../../../src/domain/writes/merge-patch.ts';
import { ifMatchSatisfied, recordEtag } from '../../../src/domain/writes/record-etag.ts';
import type {
  AppliedWrite,
  ApplyResult,
  WriteRefusal,
  WriteRequest,
} from '../../../src/domain/writes/write-request.ts';
import { problemDetails } from '../../../src/http/error-mapping.ts';
import { exampleRepoData } from '../../fixtures/example-repo.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

/** The shared write token, as the audit trail names it. */
const WRITE_TOKEN_CALLER = { kind: 'service', name: 'write-token' } as const;

function snapshotOf(raw = CRUD_DATA, revision = 'r0'): Snapshot {
  const built = createSnapshot(canonicalSets(raw), revision);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

type Body = Record<string, unknown>;
const create = (collection: Collection, body: Body): WriteRequest => ({
  kind: 'create',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  body,
});
const replace = (collection: Collection, id: string, body: Body): WriteRequest => ({
  kind: 'replace',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  id,
  body,
});
const patch = (collection: Collection, id: string, p: Body): WriteRequest => ({
  kind: 'merge-patch',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  id,
  patch: p,
});
const remove = (collection: Collection, id: string): WriteRequest => ({
  kind: 'delete',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  id,
});

function applied(outcome: ApplyResult): AppliedWrite {
  if (!outcome.ok) throw new Error(`refused: ${outcome.refusal.message}`);
  return outcome.applied;
}

function refused(outcome: ApplyResult): WriteRefusal & { details: { path: string; message: string }[] } {
  if (outcome.ok) throw new Error('the write was not refused');
  const { refusal } = outcome;
  const details = 'problems' in refusal ? problemDetails(refusal.problems, refusal.subject) : [];
  return { ...refusal, details };
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
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
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

  it('keeps a "__proto__" key as an own key, for validation to refuse, and never touches a prototype', () => {
    const target = { labels: { team: 'a' } };
    const asString = applyMergePatch(target, JSON.parse('{"labels": {"__proto__": "x"}}')) as {
      labels: Record<string, unknown>;
    };
    expect(Object.keys(asString.labels)).toEqual(['team', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(asString.labels, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(asString.labels)).toBe(Object.prototype);

    const asObject = applyMergePatch(target, JSON.parse('{"labels": {"__proto__": {"polluted": "yes"}}}')) as {
      labels: Record<string, unknown>;
    };
    expect(Object.keys(asObject.labels)).toEqual(['team', '__proto__']);
    expect(Object.getPrototypeOf(asObject.labels)).toBe(Object.prototype);
    expect((asObject.labels as { polluted?: string }).polluted).toBeUndefined();

    const removed = applyMergePatch(asString, JSON.parse('{"labels": {"__proto__": null}}')) as {
      labels: Record<string, unknown>;
    };
    expect(Object.keys(removed.labels)).toEqual(['team']);
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
  const all: [Collection, AnyRecord][] = (
    ['clusters', 'platform_components', 'namespaces', 'rolebindings'] as const
  ).flatMap((c) =>
    [...(snapshot[c] as ReadonlyMap<string, AnyRecord>).values()].map((r): [Collection, AnyRecord] => [c, r]),
  );
  it.each(all.map(([c, r]) => [`${c}/${r.id}`, c, r] as const))(
    '%s reads back as the same record',
    (_name, collection, record) => {
      const text = recordFileText(collection, record, '# yaml-language-server: $schema=../schemas/x.json\n');
      const parsed = parseRecordFile(`${collection}/${record.id}.yaml`, text);
      expect(parsed?.problems).toEqual([]);
      expect(parsed?.record).toEqual(record);
      expect(text.startsWith('# yaml-language-server')).toBe(true);
      expect(text).toContain(`id: ${record.id}\n`);
    },
  );

  it('keeps the canonical key order, leaves null overrides out and quotes every patch value', () => {
    const text = recordFileText('clusters', snapshot.clusters.get('c1')!);
    const keys = text
      .split('\n')
      .filter((l) => /^[a-z_]+:/.test(l))
      .map((l) => l.split(':')[0]);
    expect(keys).toEqual([
      'id',
      'cluster_name',
      'cluster_dns',
      'environment',
      'platform_components',
      'namespaces',
      'rolebindings',
      'patches',
    ]);
    expect(text).not.toContain('null');
    expect(text).toContain('    oci_tag: 6.7.2-hotfix\n');
    expect(text).toContain('    replicaCount: "3"\n');
    expect(text).toContain('    ui.color: "blue"\n');
  });

  it(
    'leaves credential_generation out at 0, as a person ' + 'writes a file, and writes it after environment otherwise',
    () => {
      const raised = { ...snapshot.clusters.get('c1')!, credential_generation: 4 };
      const text = recordFileText('clusters', raised);
      const keys = text
        .split('\n')
        .filter((l) => /^[a-z_]+:/.test(l))
        .map((l) => l.split(':')[0]);
      expect(keys.slice(0, 6)).toEqual([
        'id',
        'cluster_name',
        'cluster_dns',
        'environment',
        'credential_generation',
        'platform_components',
      ]);
      expect(parseRecordFile('clusters/c1.yaml', text)?.record).toEqual(raised);
      expect(recordFileText('clusters', snapshot.clusters.get('c1')!)).not.toContain('credential_generation');
    },
  );

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
    const added = { ...sets.clusters[0], id: 'b-new', cluster_dns: 'b-new.example.com' };
    const a = withRecord(base, 'clusters', 'b-new', added, 'r1');
    expect(a.ok).toBe(true);
    same(
      (a as { snapshot: Snapshot }).snapshot,
      (createSnapshot({ ...sets, clusters: [...sets.clusters, added] }, 'r1') as { snapshot: Snapshot }).snapshot,
    );
    expect([...(a as { snapshot: Snapshot }).snapshot.clusters.keys()]).toEqual(['b-new', 'c0', 'c1']);

    const moved = { ...sets.clusters[1], cluster_dns: 'moved.example.com' };
    const b = withRecord(base, 'clusters', moved.id, moved, 'r2') as { ok: true; snapshot: Snapshot };
    expect(b.snapshot.clustersByDns.has('moved.example.com')).toBe(true);
    expect(b.snapshot.clustersByDns.has(sets.clusters[1].cluster_dns.toLowerCase())).toBe(false);
    expect(b.snapshot.revision).toBe('r2');

    const c = withRecord(base, 'namespaces', 'team-b', null, 'r3') as { ok: true; snapshot: Snapshot };
    same(
      c.snapshot,
      (
        createSnapshot({ ...sets, namespaces: sets.namespaces.filter((n) => n.id !== 'team-b') }, 'r3') as {
          snapshot: Snapshot;
        }
      ).snapshot,
    );
    expect(snapshotRecords(base).namespaces.map((n) => n.id)).toContain('team-b'); // the base is untouched
  });

  it('refuses a cluster_dns in use (any case, trailing dot) and a reference listed twice', () => {
    const dup = { ...sets.clusters[0], cluster_dns: `${sets.clusters[1].cluster_dns.toUpperCase()}.` };
    expect(withRecord(base, 'clusters', dup.id, dup, 'x').ok).toBe(false);
    const twice = { ...sets.clusters[0], namespaces: [{ id: 'team-a' }, { id: 'team-a' }] };
    const result = withRecord(base, 'clusters', twice.id, twice, 'x');
    expect(result.ok ? [] : result.problems.map((p) => [p.code, p.at.record?.id, p.at.field])).toEqual([
      ['duplicate_reference', twice.id, '/namespaces/1/id'],
    ]);
  });
});

describe('applyWrite', () => {
  const base = snapshotOf();
  const c1 = base.clusters.get('c1')!;

  it('applies an update, names the changed fields and builds the next revision', () => {
    const result = applied(applyWrite(base, patch('clusters', 'c1', { patches: { podinfo: { replicaCount: '4' } } })));
    expect(result.changedFields).toEqual(['patches']);
    expect(result.action).toBe('update');
    expect(result.unchanged).toBe(false);
    expect(result.snapshot.clusters.get('c1')!.patches.podinfo).toEqual({ replicaCount: '4', 'ui.color': 'blue' });
    expect(base.clusters.get('c1')!.patches.podinfo.replicaCount).toBe('3');
  });

  it('reports an update that changes nothing as unchanged, with the same snapshot', () => {
    const result = applied(applyWrite(base, replace('clusters', 'c1', { ...c1 })));
    expect(result).toMatchObject({ unchanged: true, changedFields: [] });
    expect(result.snapshot).toBe(base);
  });

  it('lists every field of a created and of a deleted record', () => {
    const created = applied(applyWrite(base, create('namespaces', { id: 'team-c' })));
    expect(created.changedFields).toEqual(['id', 'labels', 'annotations']);
    expect(created.record).toEqual({ id: 'team-c', labels: {}, annotations: {} });
    expect(created.action).toBe('create');
    const deleted = applied(applyWrite(base, remove('clusters', 'c0')));
    expect(deleted.record).toBeNull();
    expect(deleted.action).toBe('delete');
    expect(deleted.snapshot.clusters.has('c0')).toBe(false);
  });

  it('refuses a create of an existing id (conflict) and a write to a missing one (not found)', () => {
    expect(refused(applyWrite(base, create('clusters', { ...c1 }))).reason).toBe('conflict');
    expect(refused(applyWrite(base, replace('clusters', 'zz', { ...c1, id: 'zz' }))).reason).toBe('not_found');
    expect(refused(applyWrite(base, remove('namespaces', 'zz'))).reason).toBe('not_found');
  });

  it('refuses a create without a valid id, naming the rule', () => {
    const error = refused(applyWrite(base, create('namespaces', { id: '../x' })));
    expect(error.reason).toBe('invalid');
    expect(error.message).toContain('needs a valid "id"');
  });

  it('refuses a stale If-Match (precondition failed) and accepts the current ETag', () => {
    const stale = applyWrite(base, {
      ...patch('clusters', 'c1', { environment: 'qa' }),
      ifMatch: '"stale"',
    } as WriteRequest);
    expect(refused(stale).reason).toBe('precondition_failed');
    const current = applyWrite(base, {
      ...patch('clusters', 'c1', { environment: 'qa' }),
      ifMatch: recordEtag(c1),
    } as WriteRequest);
    expect(applied(current).changedFields).toEqual(['environment']);
  });

  it('refuses unknown fields by name, with JSON-pointer paths', () => {
    const error = refused(applyWrite(base, replace('clusters', 'c1', { ...c1, enviroment: 'dev' })));
    expect(error.reason).toBe('invalid');
    expect(error.details).toEqual([{ path: '/enviroment', message: 'unknown field "enviroment"' }]);
    expect('problems' in error && error.problems.map((p) => p.code)).toEqual(['unknown_field']);
  });

  it('refuses dangling references, patches of unreferenced components and duplicate references', () => {
    const error = refused(
      applyWrite(
        base,
        patch('clusters', 'c1', {
          platform_components: [{ id: 'nope', enabled: true }],
          namespaces: [{ id: 'team-a' }, { id: 'team-a' }],
        }),
      ),
    );
    expect(error.reason).toBe('invalid');
    expect(error.details.map((d) => d.path)).toContain('/namespaces/1/id');
    const more = refused(
      applyWrite(base, patch('clusters', 'c1', { platform_components: [{ id: 'nope', enabled: true }] })),
    );
    expect(more.details).toEqual(
      expect.arrayContaining([
        { path: '/platform_components/0/id', message: 'references platform_components "nope", which does not exist' },
        { path: '/patches/podinfo', message: expect.stringContaining('does not reference') },
      ]),
    );
  });

  it('refuses a cluster_dns another cluster has (conflict), case-insensitively and with a trailing dot', () => {
    const error = refused(applyWrite(base, patch('clusters', 'c0', { cluster_dns: 'C1.K8S.example.com' })));
    expect(error.reason).toBe('conflict');
    expect(error.message).toContain('c1');
    expect(error.details).toEqual([{ path: '/cluster_dns', message: 'already used by cluster "c1"' }]);
  });

  it('refuses to delete a definition clusters reference (conflict, naming them) or a depends_on target', () => {
    const ns = refused(applyWrite(base, remove('namespaces', 'team-a')));
    expect(ns.reason).toBe('conflict');
    expect(ns.message).toContain('referenced by clusters: c1');
    expect(refused(applyWrite(base, remove('rolebindings', 'admins'))).message).toContain('c1');
    const cm = refused(applyWrite(base, remove('platform_components', 'cert-manager')));
    expect(cm.message).toBe(
      'platform_components/cert-manager is still referenced by clusters: c1; remove those references first',
    );
    // Once no cluster uses it, traefik's depends_on still holds it.
    const unassigned = applied(
      applyWrite(
        base,
        patch('clusters', 'c1', {
          platform_components: [
            { id: 'podinfo', enabled: true },
            { id: 'traefik', enabled: true },
          ],
        }),
      ),
    ).snapshot;
    const dep = refused(applyWrite(unassigned, remove('platform_components', 'cert-manager')));
    expect(dep.reason).toBe('conflict');
    expect(dep.message).toContain('depends_on of catalog entries: traefik');
    // Unreferenced and not depended on: fine.
    expect(applied(applyWrite(base, remove('platform_components', 'unused'))).record).toBeNull();
  });

  it('refuses unknown and cyclic depends_on', () => {
    const unknown = refused(applyWrite(base, patch('platform_components', 'podinfo', { depends_on: ['ghost'] })));
    expect(unknown.details).toEqual([
      { path: '/depends_on/0', message: 'depends on "ghost", which is not in the catalog' },
    ]);
    const cycle = refused(applyWrite(base, patch('platform_components', 'cert-manager', { depends_on: ['podinfo'] })));
    expect(cycle.details[0].message).toBe(
      'depends_on forms a cycle: cert-manager -> podinfo -> traefik -> cert-manager',
    );
  });

  it('refuses a catalog change that would push a cluster response over 900 KiB, but warnings never block', () => {
    const podinfo = base.platform_components.get('podinfo')!;
    const huge = refused(
      applyWrite(
        base,
        replace('platform_components', 'podinfo', { ...podinfo, oci_url: `oci://x/${'y'.repeat(950_000)}` }),
      ),
    );
    expect(huge.reason).toBe('invalid');
    expect(huge.details).toEqual([{ path: 'clusters/c1', message: expect.stringContaining('over the consumer') }]);
    // 101 platform components on one cluster is a warning (consumer's default limit), not an error.
    let snapshot = base;
    const ids = Array.from({ length: 101 }, (_, i) => `extra-${String(i).padStart(3, '0')}`);
    for (const id of ids) {
      snapshot = applied(
        applyWrite(
          snapshot,
          create('platform_components', {
            id,
            component_path: id,
            component_version: '1',
            oci_url: 'oci://x',
            oci_tag: '1',
          }),
        ),
      ).snapshot;
    }
    const many = applied(
      applyWrite(snapshot, patch('clusters', 'c0', { platform_components: ids.map((id) => ({ id, enabled: true })) })),
    );
    expect(many.record).toMatchObject({ id: 'c0' });
  });

  it('bounds a cluster answer from above without merging it (so most clusters skip the exact size check)', () => {
    const example = createSnapshot(exampleRepoData() as never, 'x');
    for (const snapshot of [base, (example as { snapshot: Snapshot }).snapshot]) {
      for (const [collection, endpoint] of [
        ['platform_components', 'platform-components'],
        ['namespaces', 'namespaces'],
        ['rolebindings', 'rolebindings'],
      ] as const) {
        const bound = responseSizeBound(snapshot, collection);
        for (const cluster of snapshot.clusters.values()) {
          const exact = Buffer.byteLength(
            JSON.stringify({ inputs: PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster) }),
          );
          expect(bound(cluster), `${cluster.id} ${endpoint}`).toBeGreaterThanOrEqual(exact);
          expect(bound(cluster)).toBeLessThan(exact * 4 + 1024);
        }
      }
    }
  });

  it('refuses an id in the body that differs from the path, before looking the record up', () => {
    expect(refused(applyWrite(base, patch('namespaces', 'team-a', { id: 'team-z' }))).details).toEqual([
      { path: '/id', message: 'must be "team-a" or left out' },
    ]);
    expect(refused(applyWrite(base, replace('namespaces', 'missing', { id: 'other' }))).reason).toBe('invalid');
  });
});
