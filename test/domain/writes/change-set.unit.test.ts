// applyChangeSet: several writes applied in order and judged once, as a whole, against the
// revision they start from; a refusal names the write by its index.
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../../src/domain/records.ts';
import { createSnapshot, type Snapshot } from '../../../src/domain/snapshot.ts';
import { applyChangeSet, type ChangeSetResult } from '../../../src/domain/writes/change-set.ts';
import { recordEtag } from '../../../src/domain/writes/record-etag.ts';
import type { WriteRequest } from '../../../src/domain/writes/write-request.ts';
import { applyWrite } from '../../helpers/apply-write.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

const WHO = { kind: 'person', name: 'Ada', email: 'ada@example.com' } as const;

function snapshotOf(raw = CRUD_DATA): Snapshot {
  const built = createSnapshot(canonicalSets(raw), 'r0');
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

type Body = Record<string, unknown>;
const base = { role: 'write', who: WHO } as const;
const create = (collection: Collection, body: Body): WriteRequest => ({ kind: 'create', collection, ...base, body });
const patch = (collection: Collection, id: string, p: Body, ifMatch?: string): WriteRequest => ({
  kind: 'merge-patch',
  collection,
  ...base,
  id,
  patch: p,
  ...(ifMatch === undefined ? {} : { ifMatch }),
});
const remove = (collection: Collection, id: string): WriteRequest => ({ kind: 'delete', collection, ...base, id });
const set = (snapshot: Snapshot, writes: WriteRequest[], message?: string): ChangeSetResult =>
  applyChangeSet(snapshot, { writes, ...base, ...(message === undefined ? {} : { message }) });

function refusal(result: ChangeSetResult) {
  if (result.ok) throw new Error('the change set was not refused');
  return result.refusal;
}

const newCluster = (id: string, namespace: string): Body => ({
  id,
  cluster_name: id,
  cluster_dns: `${id}.example.com`,
  environment: 'prod',
  namespaces: [{ id: namespace }],
});

describe('a change set', () => {
  it('may reference a namespace it creates, before or after the reference', () => {
    const snapshot = snapshotOf();
    const writes = [
      create('clusters', newCluster('n1', 'team-new')),
      create('clusters', newCluster('n2', 'team-new')),
      create('namespaces', { id: 'team-new' }),
    ];
    const result = set(snapshot, writes, 'add team-new');
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.touched).toHaveLength(3);
    expect(result.changes.map((c) => `${c.collection}/${c.id} ${c.action}`)).toEqual([
      'clusters/n1 create',
      'clusters/n2 create',
      'namespaces/team-new create',
    ]);
    expect(result.snapshot.namespaces.has('team-new')).toBe(true);
    expect(snapshot.namespaces.has('team-new')).toBe(false); // pure
    // One by one, in that order, the first reference is refused.
    const first = applyWrite(snapshot, writes[0]);
    expect(first.ok).toBe(false);
  });

  it('names the failing write by its index: a stale if_match, a missing record', () => {
    const snapshot = snapshotOf();
    const etag = recordEtag(snapshot.clusters.get('c1')!);
    const writes = [
      patch('clusters', 'c1', { cluster_name: 'x' }, etag),
      patch('clusters', 'c1', { cluster_name: 'y' }, '"stale"'),
    ];
    expect(refusal(set(snapshot, writes))).toMatchObject({ reason: 'precondition_failed', index: 1 });
    expect(
      refusal(set(snapshot, [patch('clusters', 'c1', { cluster_name: 'x' }), remove('namespaces', 'nope')])),
    ).toMatchObject({ reason: 'not_found', index: 1 });
  });

  it('checks every if_match against the revision the set applies to: the ETag the client read', () => {
    const snapshot = snapshotOf();
    const etag = recordEtag(snapshot.clusters.get('c1')!);
    // Two edits of the version read, both naming it: the second is not refused for the first.
    const result = set(snapshot, [
      patch('clusters', 'c1', { cluster_name: 'x' }, etag),
      patch('clusters', 'c1', { environment: 'qa' }, etag),
    ]);
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.snapshot.clusters.get('c1')).toMatchObject({ cluster_name: 'x', environment: 'qa' });
    // A record the set creates was read by no one: an if_match on it cannot match.
    const created = refusal(
      set(snapshot, [
        create('namespaces', { id: 'fresh' }),
        patch('namespaces', 'fresh', { labels: { a: 'b' } }, '"any"'),
      ]),
    );
    expect(created).toMatchObject({ reason: 'precondition_failed', index: 1 });
    expect(created.message).toContain('created by an earlier write of the set');
  });

  it('names the last write to the record a problem is on', () => {
    const snapshot = snapshotOf();
    // Write 0 makes c0 reference a namespace that is not there; write 2 touches c0 last.
    const writes = [
      patch('clusters', 'c0', { namespaces: [{ id: 'ghost' }] }),
      patch('clusters', 'c1', { cluster_name: 'z' }),
      patch('clusters', 'c0', { cluster_name: 'still' }),
    ];
    const refused = refusal(set(snapshot, writes));
    expect(refused).toMatchObject({ reason: 'invalid', index: 2 });
    expect(refused.reason === 'invalid' && refused.problems.map((p) => p.code)).toEqual(['dangling_reference']);
  });

  it(
    'refuses deleting a definition still referenced at the end (409 at the delete), and allows it once the ' +
      'references go too',
    () => {
      const snapshot = snapshotOf();
      const refused = refusal(
        set(snapshot, [patch('clusters', 'c0', { cluster_name: 'q' }), remove('namespaces', 'team-a')]),
      );
      expect(refused).toMatchObject({ reason: 'conflict', index: 1 });
      expect(refused.message).toContain('c1');
      const ok = set(snapshot, [remove('namespaces', 'team-a'), patch('clusters', 'c1', { namespaces: [] })]);
      expect(ok.ok).toBe(true);
    },
  );

  it('judges only what the set introduces (the ratchet): an old dangling reference does not block', () => {
    const raw = structuredClone(CRUD_DATA);
    (raw.clusters[1] as Body).namespaces = [{ id: 'old-ghost' }];
    const snapshot = snapshotOf(raw);
    const result = set(snapshot, [
      patch('clusters', 'c0', { cluster_name: 'renamed' }),
      patch('namespaces', 'team-b', { labels: { a: 'b' } }),
    ]);
    expect(result.ok).toBe(true);
  });

  it('is unchanged when every write is put back, and stores nothing', () => {
    const snapshot = snapshotOf();
    const result = set(snapshot, [
      patch('clusters', 'c0', { cluster_name: 'tmp' }),
      patch('clusters', 'c0', { cluster_name: 'bare' }),
    ]);
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.unchanged).toBe(true);
    expect(result.changes).toEqual([]);
    expect(result.snapshot).toBe(snapshot);
  });

  it('a record created and deleted in the set is no change', () => {
    const snapshot = snapshotOf();
    const result = set(snapshot, [
      create('namespaces', { id: 'brief' }),
      remove('namespaces', 'brief'),
      patch('namespaces', 'team-b', { labels: { x: 'y' } }),
    ]);
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.touched.map((k) => k.id)).toEqual(['brief', 'team-b']);
    expect(result.changes.map((c) => c.id)).toEqual(['team-b']);
  });

  it('holds a set of several writes to the shrink guard, unless its message carries the trailer', () => {
    const raw = structuredClone(CRUD_DATA);
    for (const id of ['s1', 's2'])
      raw.clusters.push({
        id,
        cluster_name: id,
        cluster_dns: `${id}.example.com`,
        environment: 'dev',
        namespaces: [{ id: 'team-b' }],
      });
    const snapshot = snapshotOf(raw);
    const writes = [patch('clusters', 's1', { namespaces: [] }), patch('clusters', 's2', { namespaces: [] })];
    const refused = refusal(set(snapshot, writes, 'empty two'));
    expect(refused).toMatchObject({ reason: 'invalid', index: 1 });
    expect(refused.reason === 'invalid' && refused.problems[0].code).toBe('shrink_guard');
    expect(set(snapshot, writes, 'empty two\n\nGitops-Allow-Shrink: yes').ok).toBe(true);
    // One write alone is never guarded.
    expect(set(snapshot, [writes[0]]).ok).toBe(true);
  });
});
