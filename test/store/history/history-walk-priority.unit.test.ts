// The history's walk of the fleet for a definition change (a catalog bump reaches every
// cluster) runs only when the store's queue is quiet, so the next write does not wait for it;
// what it finds is what the whole comparison finds.
import { describe, expect, it } from 'vitest';
import { changedClusterIds } from '../../../src/domain/changed-clusters.ts';
import { createSnapshot, type Snapshot } from '../../../src/domain/snapshot.ts';
import { applyChangeSet } from '../../../src/domain/writes/change-set.ts';
import { HISTORY_BACKLOG, RevisionHistory } from '../../../src/store/history/revision-history.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';
import { canonicalSets } from '../../fixtures/records.ts';

const CLUSTERS = 2000;

function fleet(size = CLUSTERS): Snapshot {
  const template = CRUD_DATA.clusters[0];
  const clusters = Array.from({ length: size }, (_, i) => ({
    ...template,
    id: `c${i}`,
    cluster_name: `cluster-${i}`,
    cluster_dns: `c${i}.k8s.example.com`,
  }));
  const built = createSnapshot(canonicalSets({ ...CRUD_DATA, clusters }), 'before');
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

function bumped(before: Snapshot): Snapshot {
  const who = { kind: 'service', name: 'write-token' } as const;
  const patch = { oci_tag: 'v1.17.0' };
  const write = {
    kind: 'merge-patch',
    collection: 'platform_components',
    id: 'cert-manager',
    patch,
    role: 'write',
    who,
  };
  const applied = applyChangeSet(before, { role: 'write', who, writes: [write as never] });
  if (!applied.ok) throw new Error(applied.refusal.message);
  return { ...applied.snapshot, revision: 'after' };
}

/** A history whose store's queue is never quiet. */
function neverQuiet(): RevisionHistory {
  const never = new Promise<void>(() => undefined);
  return new RevisionHistory(
    async () => undefined,
    undefined,
    undefined,
    () => never,
  );
}

describe('the history walks a definition change when the store is quiet', () => {
  it('makes no entry while the queue is busy, then the entry the whole comparison gives', async () => {
    const before = fleet();
    const after = bumped(before);
    let open!: () => void;
    const quiet = new Promise<void>((resolve) => (open = resolve));
    let asked = 0;
    const history = new RevisionHistory(
      async () => undefined,
      undefined,
      undefined,
      () => {
        asked++;
        return quiet;
      },
    );
    const told: (readonly string[])[] = [];
    history.onClustersChanged((_, ids) => told.push(ids));
    history.published(before);
    await history.settled();
    history.published(after);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toBeGreaterThan(0);
    expect(told).toEqual([]);

    open();
    await history.settled();
    expect(told).toEqual([changedClusterIds(before, after)]);
    const [entry] = (await history.list({ limit: 10 }))!.revisions;
    const expected = changedClusterIds(before, after);
    expect(expected).toHaveLength(CLUSTERS);
    expect(entry).toMatchObject({ revision: 'after', clusters_changed: expected.length });
    expect(entry.clusters).toEqual(expected.slice(0, entry.clusters!.length));
  });

  it('walks at once for whoever asks for the list, without waiting for a quiet that never comes', async () => {
    const before = fleet();
    const after = bumped(before);
    const history = neverQuiet();
    history.published(before);
    history.published(after);
    const page = await history.list({ limit: 10 });
    expect(page!.revisions[0]).toMatchObject({ revision: 'after', clusters_changed: CLUSTERS });
    // And later entries wait for quiet again.
    const told: (readonly string[])[] = [];
    history.onClustersChanged((_, ids) => told.push(ids));
    history.published({ ...before, revision: 'again' });
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([]);
  });

  it(
    'stops waiting for quiet once more than HISTORY_BACKLOG entries wait, ' +
      'so writes back to back cannot pile them up',
    async () => {
      // Each entry waiting holds its revision's snapshot: a stream of writes, each sooner than the
      // wait for quiet, kept them all (the heap grew 15 KB a write without end at 10,000 clusters).
      const before = fleet(50);
      const after = bumped(before);
      const history = neverQuiet();
      const told: string[] = [];
      history.onClustersChanged((published) => told.push(published.revision));
      const count = HISTORY_BACKLOG + 12;
      for (let i = 0; i < count; i++) history.published({ ...(i % 2 === 0 ? before : after), revision: `r${i}` });
      // The first has nothing to compare with; of the rest, all but the last HISTORY_BACKLOG are made.
      const made = count - 1 - HISTORY_BACKLOG;
      for (let turns = 0; turns < 10_000 && told.length < made; turns++) await new Promise((r) => setImmediate(r));
      for (let turns = 0; turns < 50; turns++) await new Promise((r) => setImmediate(r));
      expect(told).toEqual(Array.from({ length: made }, (_, i) => `r${i + 1}`));
      await history.settled();
      expect(told).toHaveLength(count - 1);
    },
  );
});
