// A rollout's plan (src/domain/rollouts/rollout-plan.ts): members, waves, steps and batches,
// the same whatever order the clusters come in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayeredMap } from '../../../src/domain/layered-map.ts';
import type { Cluster, Environment } from '../../../src/domain/records.ts';
import { createSnapshot } from '../../../src/domain/snapshot.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { batchSize, isReleased, planRollout, releasedSteps } from '../../../src/domain/rollouts/rollout-plan.ts';
import { cluster, clustersMap, fourEnvironments, KPS, rollout, THREE_WAVES } from '../../fixtures/rollout-fleet.ts';

const stepsOf = (plan: ReturnType<typeof planRollout>) => plan.steps.map((s) => [s.step, s.wave, [...s.members]]);

describe('the plan of a rollout', () => {
  const clusters = clustersMap(fourEnvironments());

  it('holds the clusters that use the component, in waves minus earlier waves, cut in batches', () => {
    const plan = planRollout(rollout({ waves: THREE_WAVES }), clusters);
    expect(plan.members).not.toContain('dev-no-kps');
    expect(plan.members).toHaveLength(12);
    expect(stepsOf(plan)).toEqual([
      [1, 'canary', ['dev-eu-1']],
      [2, 'non-prod', ['dev-eu-2', 'dev-us-1', 'qa-eu-1', 'qa-us-1', 'uat-eu-1']],
      [3, 'prod', ['prod-ap-1', 'prod-eu-1', 'prod-eu-2']],
      [4, 'prod', ['prod-eu-3', 'prod-us-1', 'prod-us-2']],
    ]);
    expect(plan.steps.map((s) => s.opensWave)).toEqual([true, true, true, false]);
    expect(plan.steps.map((s) => s.soakMs)).toEqual([0, 2 * 3600_000, 30 * 60_000, 30 * 60_000]);
    expect(plan.waves.map((w) => [w.name, w.steps])).toEqual([
      ['canary', [1]],
      ['non-prod', [2]],
      ['prod', [3, 4]],
    ]);
    expect(plan.stepOf.get('prod-us-2')).toBe(4);
    expect(plan.unassigned).toEqual([]);
    expect(plan.deadlineMs).toBe(3600_000);
  });

  it('counts a cluster whose reference is disabled as a member (its answer carries the entry too)', () => {
    const list = [cluster('a', 'dev', [{ id: KPS.id, enabled: false }]), cluster('b', 'dev')];
    const plan = planRollout(rollout({ waves: [{ name: 'all', environments: ['dev'] }] }), clustersMap(list));
    expect(plan.members).toEqual(['a', 'b']);
  });

  it('reports the members in no wave, and never gives them a step', () => {
    const plan = planRollout(rollout({ waves: [{ name: 'dev', environments: ['dev'] }] }), clusters);
    expect(plan.unassigned).toEqual([
      'prod-ap-1',
      'prod-eu-1',
      'prod-eu-2',
      'prod-eu-3',
      'prod-us-1',
      'prod-us-2',
      'qa-eu-1',
      'qa-us-1',
      'uat-eu-1',
    ]);
    expect(plan.stepOf.has('qa-eu-1')).toBe(false);
  });

  it('gives a wave with no member no step, and numbers the next wave on', () => {
    const waves = [
      { name: 'nobody', clusters: ['ghost'] },
      { name: 'qa', environments: ['qa'] },
    ];
    const plan = planRollout(rollout({ waves }), clusters);
    expect(plan.waves[0]).toEqual({ name: 'nobody', members: [], steps: [] });
    expect(stepsOf(plan)).toEqual([[1, 'qa', ['qa-eu-1', 'qa-us-1']]]);
  });

  it('cuts batches of a number of clusters, the last one shorter', () => {
    const waves = [{ name: 'all', environments: ['dev', 'qa', 'uat', 'prod'], batch: 5 }];
    const plan = planRollout(rollout({ waves }), clusters);
    expect(plan.steps.map((s) => s.members.length)).toEqual([5, 5, 2]);
  });

  it('releases steps 1..released, never more than there are', () => {
    const plan = planRollout(rollout({ waves: THREE_WAVES, released: 2 }), clusters);
    expect(isReleased(plan, 'dev-eu-2')).toBe(true);
    expect(isReleased(plan, 'prod-eu-1')).toBe(false);
    expect(isReleased(plan, 'dev-no-kps')).toBe(false);
    expect(releasedSteps(planRollout(rollout({ waves: THREE_WAVES, released: 9 }), clusters))).toBe(4);
  });

  it('is not made again for a record that moved only released, paused or approved (a release commit)', () => {
    const plan = planRollout(rollout({ waves: THREE_WAVES, released: 1 }), clusters);
    const moved = rollout({ waves: THREE_WAVES, released: 2, paused: true, approved: ['non-prod'] });
    const next = planRollout(moved, clusters);
    expect(next.rollout.released).toBe(2);
    expect(next.steps).toBe(plan.steps);
    expect(next.stepOf).toBe(plan.stepOf);
    const otherWaves = planRollout(rollout({ waves: THREE_WAVES.slice(1), released: 2 }), clusters);
    expect(otherWaves.steps).not.toBe(plan.steps);
    const otherDeadline = planRollout(rollout({ waves: THREE_WAVES, progress_deadline: '2h' }), clusters);
    expect(otherDeadline.deadlineMs).toBe(2 * 3600_000);
  });

  it('is kept across a write of clusters that leaves its membership alone, and made again otherwise', () => {
    const base = createSnapshot(canonicalSets({ clusters: fourEnvironments() }), 'r0');
    if (!base.ok) throw new Error('fixture');
    const before = base.snapshot.clusters;
    const r = rollout({ waves: THREE_WAVES });
    const plan = planRollout(r, before);
    const write = (c: Cluster | null, id = c!.id) => planRollout(r, LayeredMap.with(before, id, c));
    // Not a member before or after; a member's own pin; a member's name.
    expect(write(cluster('dev-no-kps', 'prod', ['podinfo'])).steps).toBe(plan.steps);
    expect(write(cluster('prod-eu-1', 'prod', [{ id: KPS.id, oci_tag: 'pin' }])).steps).toBe(plan.steps);
    expect(write({ ...cluster('qa-eu-1', 'qa'), cluster_name: 'renamed' }).steps).toBe(plan.steps);
    // A new member, a member gone, a member in another environment.
    expect(write(cluster('dev-no-kps', 'dev')).stepOf.get('dev-no-kps')).toBe(2);
    expect(write(null, 'qa-eu-1').stepOf.has('qa-eu-1')).toBe(false);
    expect(write(cluster('prod-eu-1', 'dev')).stepOf.get('prod-eu-1')).toBe(2);
    expect(write(cluster('brand-new', 'uat')).steps[1].members).toContain('brand-new');
  });

  it('is made once per rollout record and clusters map', () => {
    const r = rollout({ waves: THREE_WAVES });
    const plan = planRollout(r, clusters);
    expect(planRollout(r, clusters)).toBe(plan);
    expect(planRollout(r, new Map(clusters))).not.toBe(plan);
    expect(stepsOf(planRollout(r, new Map(clusters)))).toEqual(stepsOf(plan));
  });
});

describe('batches', () => {
  it('of a percentage are rounded up, at least one cluster', () => {
    expect(batchSize('10%', 25)).toBe(3);
    expect(batchSize('1%', 5)).toBe(1);
    expect(batchSize('33%', 10)).toBe(4);
    expect(batchSize('100%', 7)).toBe(7);
    expect(batchSize('50%', 1)).toBe(1);
  });

  it('of nothing are the whole wave; of a number, that number', () => {
    expect(batchSize(null, 7)).toBe(7);
    expect(batchSize(3, 7)).toBe(3);
  });

  it('of a percentage P cut a wave of N into steps of ceil(P×N/100), the last one shorter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 300 }), (percent, size) => {
        const list = Array.from({ length: size }, (_, i) => cluster(`c-${String(i).padStart(3, '0')}`, 'prod'));
        const waves = [{ name: 'prod', environments: ['prod'], batch: `${percent}%` }];
        const plan = planRollout(rollout({ waves }), clustersMap(list));
        const per = Math.max(1, Math.ceil((percent * size) / 100));
        const sizes = plan.steps.map((s) => s.members.length);
        expect(sizes.slice(0, -1).every((n) => n === per)).toBe(true);
        expect(sizes.at(-1)! <= per && sizes.at(-1)! >= 1).toBe(true);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(size);
        expect(sizes.length).toBe(Math.ceil(size / per));
      }),
      { numRuns: 200 },
    );
  });
});

describe('determinism', () => {
  const environments: Environment[] = ['dev', 'qa', 'uat', 'prod'];
  const fleetArb = fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^[a-z][a-z0-9-]{0,6}[a-z0-9]$/),
      environment: fc.constantFrom(...environments),
      uses: fc.boolean(),
    }),
    { selector: (c) => c.id, maxLength: 40 },
  );

  it('the same records give the same steps, whatever order the clusters come in', () => {
    fc.assert(
      fc.property(fleetArb, fc.integer({ min: 1, max: 5 }), fc.nat(), (specs, batch, seed) => {
        const list = specs.map((s) => cluster(s.id, s.environment, s.uses ? [KPS.id] : ['podinfo']));
        const picked = list.filter((_, i) => (i + seed) % 3 === 0).map((c) => c.id);
        const r = rollout({
          waves: [
            { name: 'picked', clusters: picked },
            { name: 'dev-qa', environments: ['qa', 'dev'], batch },
            { name: 'rest', environments: ['uat', 'prod'], batch: '30%' },
          ],
        });
        const everyOne = fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length });
        const shuffled = fc.sample(everyOne, { seed, numRuns: 1 })[0];
        const a = planRollout(r, clustersMap(list));
        const b = planRollout(r, clustersMap(shuffled));
        expect(stepsOf(b)).toEqual(stepsOf(a));
        expect(b.members).toEqual(a.members);
        expect([...b.stepOf].sort()).toEqual([...a.stepOf].sort());
        // Every member is in exactly one step, or in no wave.
        const stepped = a.steps.flatMap((s) => s.members);
        expect(new Set(stepped).size).toBe(stepped.length);
        expect([...stepped, ...a.unassigned].sort()).toEqual([...a.members].sort());
      }),
      { numRuns: 200 },
    );
  });
});
