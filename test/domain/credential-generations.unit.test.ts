// credential_generation never goes down: a revision (a commit, a reload) or a write that lowers
// it, leaves it out or deletes and re-creates the cluster lower is refused against the revision
// served; an id an earlier revision deleted that comes back at or below its old generation is a
// warning naming it. What the judge and the writes decide, without a server.
import { describe, expect, it } from 'vitest';
import { baselineFacts } from '../../src/domain/baseline.ts';
import { retiredAfter } from '../../src/domain/credential-generations.ts';
import { judge } from '../../src/domain/judge.ts';
import { createSnapshot, type Snapshot } from '../../src/domain/snapshot.ts';
import { applyChangeSet, type ChangeSetResult } from '../../src/domain/writes/change-set.ts';
import type { WriteRequest } from '../../src/domain/writes/write-request.ts';
import { canonicalSets } from '../fixtures/records.ts';
import { CRUD_DATA } from '../fixtures/crud-data.ts';

const WHO = { kind: 'service', name: 'write-token' } as const;
type Body = Record<string, unknown>;

/** CRUD_DATA with c1 at `generation` (or without c1 at all: null), as a served revision. */
function revision(generation: number | null | 'absent', name = 'r'): Snapshot {
  const raw = structuredClone(CRUD_DATA);
  const c1 = raw.clusters.find((c) => c.id === 'c1')!;
  if (generation === null) raw.clusters = raw.clusters.filter((c) => c.id !== 'c1');
  else if (generation !== 'absent') c1.credential_generation = generation;
  const built = createSnapshot(canonicalSets(raw), name);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

const codes = (snapshot: Snapshot, baseline: Parameters<typeof judge>[1], retired?: ReadonlyMap<string, number>) =>
  judge({ snapshot, problems: [], allowShrink: true }, baseline, { retired })
    .problems.filter((p) => p.code.startsWith('credential_generation'))
    .map((p) => `${p.severity} ${p.code}`);

describe('a revision judged against the one served', () => {
  it('is refused when a cluster that is there has a lower credential_generation, or none (0)', () => {
    const served = revision(2);
    expect(codes(revision(1), served)).toEqual(['error credential_generation_lowered']);
    expect(codes(revision('absent'), served)).toEqual(['error credential_generation_lowered']);
    expect(judge({ snapshot: revision('absent'), problems: [] }, served).publish).toBe(false);
    expect(codes(revision(2), served)).toEqual([]);
    expect(codes(revision(5), served)).toEqual([]);
    // Deleting the cluster revokes its tokens: that is no lowering.
    expect(codes(revision(null), served)).toEqual([]);
  });

  it('judges the same against the facts a store kept of the served revision (a restart on SQLite)', () => {
    const facts = baselineFacts(revision(3));
    expect(codes(revision(1), facts)).toEqual(['error credential_generation_lowered']);
    expect(codes(revision(3), facts)).toEqual([]);
    // Facts kept before generations were: nothing to judge by.
    const { generations: _generations, ...older } = facts;
    expect(codes(revision(1), older)).toEqual([]);
  });

  it('warns, naming the old generation, of an id an earlier revision deleted that comes back at or below it', () => {
    const retired = retiredAfter(new Map(), revision(3), revision(null));
    expect([...retired]).toEqual([['c1', 3]]);
    const served = revision(null);
    const back = judge({ snapshot: revision(3), problems: [] }, served, { retired });
    expect(back.publish).toBe(true);
    expect(back.problems.find((p) => p.code === 'credential_generation_reused')?.message).toContain(
      'deleted at credential_generation 3',
    );
    expect(codes(revision('absent'), served, retired)).toEqual(['warning credential_generation_reused']);
    expect(codes(revision(4), served, retired)).toEqual([]);
    // Once back, its own generation is what counts; the id is no longer retired.
    expect([...retiredAfter(retired, served, revision(4))]).toEqual([]);
    // Deleted twice, the higher generation is kept.
    expect([...retiredAfter(new Map([['c1', 9]]), revision(4), revision(null))]).toEqual([['c1', 9]]);
    // Facts kept on SQLite carry the retired generations to the next start.
    expect(baselineFacts(served, retired).retired).toEqual({ c1: 3 });
  });
});

describe('a write or a change set', () => {
  const patch = (p: Body): WriteRequest => ({
    kind: 'merge-patch',
    collection: 'clusters',
    id: 'c1',
    patch: p,
    role: 'write',
    who: WHO,
  });
  const remove: WriteRequest = { kind: 'delete', collection: 'clusters', id: 'c1', role: 'write', who: WHO };
  const create = (body: Body): WriteRequest => ({
    kind: 'create',
    collection: 'clusters',
    body,
    role: 'write',
    who: WHO,
  });
  const set = (snapshot: Snapshot, writes: WriteRequest[]): ChangeSetResult =>
    applyChangeSet(snapshot, { writes, role: 'write', who: WHO });
  const c1 = { ...(CRUD_DATA.clusters.find((c) => c.id === 'c1') as Body) };

  it(
    'is refused (400) when it lowers the generation of a cluster the served revision has, removes it, or deletes ' +
      'and re-creates the cluster lower',
    () => {
      const served = revision(2);
      for (const writes of [
        [patch({ credential_generation: 1 })],
        [patch({ credential_generation: null })],
        [remove, create({ ...c1 })],
        [remove, create({ ...c1, credential_generation: 1 })],
      ]) {
        const result = set(served, writes);
        expect(result.ok, JSON.stringify(writes)).toBe(false);
        if (result.ok) continue;
        expect(result.refusal).toMatchObject({ reason: 'invalid', index: writes.length - 1 });
        expect(
          result.refusal.reason === 'invalid' && result.refusal.problems.map((p) => `${p.code} ${p.at.field}`),
        ).toEqual(['credential_generation_lowered /credential_generation']);
      }
      expect(set(served, [remove, create({ ...c1, credential_generation: 2 })]).ok).toBe(true);
      expect(set(served, [patch({ credential_generation: 3 })]).ok).toBe(true);
      expect(set(served, [remove]).ok).toBe(true);
    },
  );
});
