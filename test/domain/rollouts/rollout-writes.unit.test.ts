// Writes of rollouts, and writes of the records around them, judged by the one rule set
// (domain/writes/write-rules.ts): what a write introduces refuses it, with the field named;
// what the revision had already does not (the ratchet).
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../src/domain/problem.ts';
import type { Collection } from '../../../src/domain/records.ts';
import { createSnapshot, type Snapshot } from '../../../src/domain/snapshot.ts';
import { applyChangeSet, type ChangeSetResult } from '../../../src/domain/writes/change-set.ts';
import type { WriteRequest } from '../../../src/domain/writes/write-request.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

const WHO = { kind: 'person', name: 'Ada', email: 'ada@example.com' } as const;

function snapshotOf(raw: typeof CRUD_DATA = CRUD_DATA): Snapshot {
  const built = createSnapshot(canonicalSets(raw), 'r0');
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

type Body = Record<string, unknown>;
const by = { role: 'write', who: WHO } as const;
const create = (collection: Collection, body: Body): WriteRequest => ({ kind: 'create', collection, ...by, body });
const replace = (collection: Collection, id: string, body: Body): WriteRequest => ({
  kind: 'replace',
  collection,
  ...by,
  id,
  body,
});
const patch = (collection: Collection, id: string, p: Body): WriteRequest => ({
  kind: 'merge-patch',
  collection,
  ...by,
  id,
  patch: p,
});
const remove = (collection: Collection, id: string): WriteRequest => ({ kind: 'delete', collection, ...by, id });
const apply = (snapshot: Snapshot, ...writes: WriteRequest[]): ChangeSetResult =>
  applyChangeSet(snapshot, { writes, ...by });

function refused(result: ChangeSetResult) {
  if (result.ok) throw new Error('the change set was not refused');
  const { refusal } = result;
  const problems: Problem[] = 'problems' in refusal ? refusal.problems : [];
  const placed = problems.map((p) => ({
    code: p.code,
    record: p.at.record && `${p.at.record.collection}/${p.at.record.id}`,
    field: p.at.field,
  }));
  return { reason: refusal.reason, message: refusal.message, index: refusal.index, problems: placed };
}

/** A rollout of traefik, which c1 (prod) uses: one wave, one step. */
const TRAEFIK = {
  id: 'traefik-34',
  component: 'traefik',
  set: { oci_tag: '34.0.0' },
  waves: [{ name: 'prod', environments: ['prod'] }],
};

describe('a rollout written with bad input is refused, naming the field, and nothing changes', () => {
  const snapshot = snapshotOf();
  it.each([
    ['an unknown component', { component: 'nope' }, 'dangling_reference', '/component'],
    ['a set of an unknown field', { set: { chart: 'x' } }, 'unknown_field', '/set/chart'],
    ['an empty set', { set: {} }, 'invalid_value', '/set'],
    ['a set the catalog has already', { set: { oci_tag: '33.0.0' } }, 'set_unchanged', '/set'],
    [
      'a soak that does not parse',
      { waves: [{ name: 'prod', environments: ['prod'], soak: '2 hours' }] },
      'invalid_duration',
      '/waves/0/soak',
    ],
    ['a deadline in days', { progress_deadline: '1d' }, 'invalid_duration', '/progress_deadline'],
    ['batch: 0', { waves: [{ name: 'prod', environments: ['prod'], batch: 0 }] }, 'invalid_value', '/waves/0/batch'],
    [
      'batch: 0%',
      { waves: [{ name: 'prod', environments: ['prod'], batch: '0%' }] },
      'invalid_value',
      '/waves/0/batch',
    ],
    [
      'batch: 101%',
      { waves: [{ name: 'prod', environments: ['prod'], batch: '101%' }] },
      'invalid_value',
      '/waves/0/batch',
    ],
    ['released past the last step', { released: 2 }, 'released_out_of_range', '/released'],
    [
      'a wave name twice',
      {
        waves: [
          { name: 'prod', environments: ['prod'] },
          { name: 'prod', clusters: ['c0'] },
        ],
      },
      'duplicate_wave_name',
      '/waves/1/name',
    ],
    ['an approval of a wave it does not have', { approved: ['qa'] }, 'unknown_approved_wave', '/approved/0'],
  ])('%s', (_, change, code, field) => {
    const result = refused(apply(snapshot, create('rollouts', { ...TRAEFIK, ...change })));
    expect(result.reason).toBe('invalid');
    expect(result.problems).toContainEqual({ code, record: 'rollouts/traefik-34', field });
    expect(result.message).toMatch(/^the rollout record is invalid: /);
  });

  it('a second rollout of one component, whichever id sorts first: a conflict naming the rollout there is', () => {
    for (const id of ['a-podinfo', 'zz-podinfo']) {
      const result = refused(
        apply(
          snapshot,
          create('rollouts', {
            id,
            component: 'podinfo',
            set: { oci_tag: '8.0.0' },
            waves: [{ name: 'all', environments: ['prod'] }],
          }),
        ),
      );
      expect(result.reason).toBe('conflict');
      expect(result.message).toBe(
        `rollouts/${id} changes the catalog entry "podinfo", which the rollout podinfo-7 changes already: one ` +
          `rollout per component at a time; complete or delete it first`,
      );
      expect(result.problems.map((p) => p.code)).toEqual(['duplicate_rollout']);
    }
  });

  it('takes a rollout that breaks no rule, warnings and all', () => {
    const result = apply(
      snapshot,
      create('rollouts', {
        ...TRAEFIK,
        waves: [
          { name: 'prod', environments: ['prod'] },
          { name: 'nobody', clusters: ['ghost'] },
        ],
      }),
    );
    expect(result.ok).toBe(true);
  });
});

describe('the records around a rollout', () => {
  const withTraefik = () => {
    const result = apply(snapshotOf(), create('rollouts', { ...TRAEFIK, released: 1 }));
    if (!result.ok) throw new Error(result.refusal.message);
    return result.snapshot;
  };

  it(
    'a catalog entry a rollout changes cannot be deleted ' + '(409 naming it), unless the rollout goes in the same set',
    () => {
      const unused = apply(
        snapshotOf(),
        create('rollouts', {
          id: 'unused-2',
          component: 'unused',
          set: { oci_tag: '2.0.0' },
          waves: [{ name: 'all', environments: ['dev'] }],
        }),
      );
      if (!unused.ok) throw new Error(unused.refusal.message);
      const result = refused(apply(unused.snapshot, remove('platform_components', 'unused')));
      expect(result).toMatchObject({
        reason: 'conflict',
        message:
          'platform_components/unused is still changed by rollouts: unused-2; complete or delete them first ' +
          '(completing folds their set into the entry)',
      });
      expect(apply(unused.snapshot, remove('rollouts', 'unused-2'), remove('platform_components', 'unused')).ok).toBe(
        true,
      );
    },
  );

  it(
    'a cluster write that leaves a rollout fewer steps than ' + "it released is refused at the rollout's `released`",
    () => {
      const snapshot = withTraefik();
      const result = refused(apply(snapshot, patch('clusters', 'c1', { environment: 'qa' })));
      expect(result.reason).toBe('invalid');
      expect(result.problems).toEqual([
        { code: 'released_out_of_range', record: 'rollouts/traefik-34', field: '/released' },
      ]);
      // Rolled back in the same set, it may.
      expect(
        apply(
          snapshot,
          patch('rollouts', 'traefik-34', { released: 0 }),
          patch('clusters', 'c1', { environment: 'qa' }),
        ).ok,
      ).toBe(true);
      // A write of another cluster, of one that does not use the component, does not look at it.
      expect(apply(snapshot, patch('clusters', 'c0', { cluster_name: 'renamed' })).ok).toBe(true);
    },
  );

  it(
    'a catalog write that gives the entry every value of a set is refused, unless it completes the rollout (deleted ' +
      'in the set)',
    () => {
      const snapshot = withTraefik();
      const traefik = { ...snapshot.platform_components.get('traefik')!, oci_tag: '34.0.0' };
      const { id: _id, ...body } = traefik;
      const result = refused(apply(snapshot, replace('platform_components', 'traefik', body)));
      expect(result.problems).toEqual([{ code: 'set_unchanged', record: 'rollouts/traefik-34', field: '/set' }]);
      const complete = apply(
        snapshot,
        replace('platform_components', 'traefik', body),
        remove('rollouts', 'traefik-34'),
      );
      expect(complete.ok).toBe(true);
    },
  );

  it('the ratchet: a problem the revision had is no reason to refuse a write that leaves it as it was', () => {
    // A revision that has a rollout released past its steps, as a commit made without the service can.
    const raw = structuredClone(CRUD_DATA);
    raw.rollouts = [{ ...CRUD_DATA.rollouts[0], released: 3 }];
    const snapshot = snapshotOf(raw);
    expect(apply(snapshot, patch('rollouts', 'podinfo-7', { paused: true })).ok).toBe(true);
    expect(apply(snapshot, patch('clusters', 'c1', { cluster_name: 'renamed' })).ok).toBe(true);
    // A write that makes it worse in another way is refused for that alone.
    const worse = refused(
      apply(snapshot, patch('rollouts', 'podinfo-7', { set: { component_version: '6.7.1', oci_tag: '6.7.1' } })),
    );
    expect(worse.problems).toEqual([{ code: 'set_unchanged', record: 'rollouts/podinfo-7', field: '/set' }]);
  });

  it("a release that makes a member's answer too large for the consumer is refused", () => {
    const raw = structuredClone(CRUD_DATA);
    const c1 = raw.clusters[0] as unknown as { patches: Record<string, Record<string, string>> };
    c1.patches.podinfo.filler = 'x'.repeat(900 * 1024 - 4_000);
    const snapshot = snapshotOf(raw);
    const url = `oci://ghcr.io/${'p'.repeat(8_000)}`;
    const longUrl = apply(snapshot, patch('rollouts', 'podinfo-7', { set: { oci_url: url } }));
    if (!longUrl.ok) throw new Error(longUrl.refusal.message);
    const result = refused(apply(longUrl.snapshot, patch('rollouts', 'podinfo-7', { released: 1 })));
    expect(result.problems).toEqual([{ code: 'response_too_large', record: 'clusters/c1', field: '' }]);
  });
});
