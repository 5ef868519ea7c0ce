// A rollout's progress (src/domain/rollouts/cluster-progress.ts, step-progress.ts,
// rollout-progress.ts): each member's state, when a step is done, its soak, and what halts it.
import { describe, expect, it } from 'vitest';
import { progressSlices, rolloutProgress } from '../../../src/domain/rollouts/rollout-progress.ts';
import { rolloutView } from '../../../src/domain/rollouts/rollout-view.ts';
import { rolloutFingerprint, type StepTimes } from '../../../src/domain/rollouts/step-progress.ts';
import { catalogMap, cluster, clustersMap, KPS, rollout, THREE_WAVES } from '../../fixtures/rollout-fleet.ts';
import { evaluate, fetched, HOUR, MINUTE, STEP_1, STEP_2, T0 } from '../../helpers/rollout-progress.ts';

const stateOf = (p: ReturnType<typeof evaluate>, id: string) =>
  p.steps.flatMap((s) => s.clusters).find((c) => c.id === id)!;

describe("a member's state", () => {
  const r = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });

  it('is pending while its step is not released, released until it fetched, then fetched', () => {
    const facts = { 'qa-eu-1': { fetchedAt: T0 - MINUTE, lastPollAt: T0 - MINUTE } };
    const p = evaluate({ rollout: r, now: T0, facts });
    expect(stateOf(p, 'prod-eu-1')).toEqual({ id: 'prod-eu-1', state: 'pending', since: null });
    expect(stateOf(p, 'dev-eu-2')).toEqual({ id: 'dev-eu-2', state: 'released', since: T0 });
    expect(stateOf(p, 'qa-eu-1')).toEqual({ id: 'qa-eu-1', state: 'fetched', since: T0 - MINUTE });
  });

  it('is what it reported: failed with its message before anything else, succeeded before fetched', () => {
    const facts = {
      'qa-eu-1': { fetchedAt: T0 - MINUTE, report: { state: 'failed' as const, at: T0, message: 'UpgradeFailed: x' } },
      'qa-us-1': { fetchedAt: T0 - MINUTE, report: { state: 'succeeded' as const, at: T0, message: '' } },
    };
    const p = evaluate({ rollout: r, now: T0, facts });
    expect(stateOf(p, 'qa-eu-1')).toEqual({ id: 'qa-eu-1', state: 'failed', since: T0, message: 'UpgradeFailed: x' });
    expect(stateOf(p, 'qa-us-1')).toEqual({ id: 'qa-us-1', state: 'succeeded', since: T0 });
  });

  it('is offline when released, not fetched, and silent for ROLLOUT_OFFLINE_AFTER', () => {
    const facts = {
      'dev-eu-2': { lastPollAt: T0 - 31 * MINUTE },
      'dev-us-1': { lastPollAt: T0 - 29 * MINUTE },
      // Fetched long ago: it has the release, however silent it is now.
      'qa-eu-1': { lastPollAt: T0 - 3 * HOUR, fetchedAt: T0 - 3 * HOUR },
    };
    const p = evaluate({ rollout: r, now: T0, facts, trackingSince: T0 - 5 * HOUR });
    expect(stateOf(p, 'dev-eu-2')).toEqual({
      id: 'dev-eu-2',
      state: 'offline',
      since: T0 - MINUTE,
      message: 'no poll since 11:29 UTC',
    });
    expect(stateOf(p, 'dev-us-1').state).toBe('released');
    expect(stateOf(p, 'qa-eu-1').state).toBe('fetched');
    // Never seen polling since tracking started 5 hours ago.
    expect(stateOf(p, 'uat-eu-1')).toEqual({
      id: 'uat-eu-1',
      state: 'offline',
      since: T0 - 4.5 * HOUR,
      message: 'no poll seen since tracking started at 07:00 UTC',
    });
  });

  it('counts silence from when tracking started, when that is later (after a restart)', () => {
    const facts = { 'dev-eu-2': { lastPollAt: T0 - 3 * HOUR } };
    const p = evaluate({ rollout: r, now: T0, facts, trackingSince: T0 - 10 * MINUTE });
    expect(stateOf(p, 'dev-eu-2').state).toBe('released');
    expect(stateOf(p, 'uat-eu-1').state).toBe('released');
  });

  it('is pinned when its own pins cover what the rollout changes', () => {
    const list = [cluster('dev-a', 'dev', [{ id: KPS.id, oci_tag: 'hotfix' }]), cluster('dev-b', 'dev')];
    const waves = [{ name: 'dev', environments: ['dev'] }];
    const tagOnly = rollout({ set: { oci_tag: '67.5.0' }, waves, released: 1 });
    const p = evaluate({ rollout: tagOnly, now: T0, clusters: list, facts: fetched(['dev-b'], T0) });
    expect(stateOf(p, 'dev-a')).toEqual({ id: 'dev-a', state: 'pinned', since: T0 });
    // A pinned cluster never gates its step.
    expect(p.steps[0].done).toBe(true);
    expect(p.steps[0].gating).toBe(1);
  });
});

describe('a step', () => {
  const r = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });
  const step1Done = new Map<number, StepTimes>([
    [1, { released_in: 'rev-0', released_at: T0 - HOUR, done_at: T0 - 50 * MINUTE }],
  ]);

  it('is done when every member that gates it fetched, first seen then', () => {
    const facts = fetched([...STEP_1, ...STEP_2.slice(0, 4)], T0);
    const p = evaluate({ rollout: r, now: T0, facts, times: step1Done });
    expect(p.steps[1].done).toBe(false);
    expect(p.steps[1].waiting).toEqual(['uat-eu-1']);
    const all = fetched([...STEP_1, ...STEP_2], T0);
    const later = evaluate({ rollout: r, now: T0 + MINUTE, facts: all, times: p.times });
    expect(later.steps[1].done).toBe(true);
    expect(later.steps[1].times).toEqual({ released_in: 'rev-1', released_at: T0, done_at: T0 + MINUTE });
    expect(later.steps[1].soakEndsAt).toBe(T0 + MINUTE + 2 * HOUR);
  });

  it('stays done once seen done, while it stays released', () => {
    const done = evaluate({ rollout: r, now: T0, facts: fetched([...STEP_1, ...STEP_2], T0), times: step1Done });
    const forgotten = evaluate({ rollout: r, now: T0 + HOUR, times: done.times });
    expect(forgotten.steps[1].done).toBe(true);
    expect(forgotten.steps[1].times.done_at).toBe(T0);
  });

  it('keeps the revision and the moment it was first seen released', () => {
    const first = evaluate({ rollout: r, now: T0, revision: 'rev-7', times: step1Done });
    const next = evaluate({ rollout: r, now: T0 + MINUTE, revision: 'rev-8', times: first.times });
    expect(next.steps[1].times).toMatchObject({ released_in: 'rev-7', released_at: T0 });
  });

  it('with require_reports is done only when its members reported success', () => {
    const strict = rollout({ waves: THREE_WAVES, released: 1, require_reports: true });
    const p = evaluate({ rollout: strict, now: T0, facts: fetched(STEP_1, T0) });
    expect(p.steps[0].done).toBe(false);
    expect(p.status.reason).toBe('1 of 1 cluster has not reported success: dev-eu-1');
    const reported = { 'dev-eu-1': { fetchedAt: T0, report: { state: 'succeeded' as const, at: T0, message: '' } } };
    expect(evaluate({ rollout: strict, now: T0, facts: reported }).steps[0].done).toBe(true);
  });

  it('is done with failed or offline members within the failure budget: they do not hold it back', () => {
    const lenient = rollout({ waves: THREE_WAVES, released: 2, failure_budget: 1, approved: ['non-prod'] });
    const facts = { ...fetched([...STEP_1, ...STEP_2.slice(1)], T0), 'dev-eu-2': { lastPollAt: T0 - HOUR } };
    const p = evaluate({ rollout: lenient, now: T0, facts, times: step1Done, trackingSince: T0 - 2 * HOUR });
    expect(p.steps[1].counts).toMatchObject({ offline: 1, fetched: 4 });
    expect(p.steps[1].done).toBe(true);
    expect(p.status.state).toBe('waiting');
  });

  it('forgets its times when it is no longer released (a rollback), and starts over when released again', () => {
    const done = evaluate({ rollout: r, now: T0, facts: fetched([...STEP_1, ...STEP_2], T0), times: step1Done });
    const back = rollout({ waves: THREE_WAVES, released: 1, approved: ['non-prod'] });
    const rolledBack = evaluate({ rollout: back, now: T0 + HOUR, times: done.times });
    expect([...rolledBack.times.keys()]).toEqual([1]);
    expect(rolledBack.steps[1].times).toEqual({ released_in: null, released_at: null, done_at: null });
    const again = evaluate({ rollout: r, now: T0 + 2 * HOUR, times: rolledBack.times });
    expect(again.steps[1].times).toEqual({ released_in: 'rev-1', released_at: T0 + 2 * HOUR, done_at: null });
  });
});

describe('halting', () => {
  const r = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });
  const step1Done = new Map<number, StepTimes>([
    [1, { released_in: 'rev-0', released_at: T0 - HOUR, done_at: T0 - 50 * MINUTE }],
  ]);

  it('a released step with more failed or offline members than the budget halts the rollout', () => {
    const facts = {
      ...fetched([...STEP_1, 'qa-us-1'], T0),
      'qa-eu-1': { report: { state: 'failed' as const, at: T0, message: 'UpgradeFailed' } },
      'dev-eu-2': { lastPollAt: T0 - HOUR },
      'dev-us-1': { lastPollAt: T0 - MINUTE },
      'uat-eu-1': { lastPollAt: T0 - MINUTE },
    };
    const p = evaluate({ rollout: r, now: T0, facts, times: step1Done, trackingSince: T0 - 2 * HOUR });
    expect(p.steps[1].halt).toEqual({ kind: 'budget' });
    expect(p.status).toEqual({
      state: 'halted',
      reason:
        'step 2 has 2 clusters failed or offline, more than the failure budget of 0: ' +
        'dev-eu-2 (offline), qa-eu-1 (failed: UpgradeFailed)',
    });
  });

  it('offline clusters beyond the budget halt it, within the budget they do not', () => {
    const facts = { ...fetched(STEP_1, T0 - HOUR) };
    const silent = evaluate({ rollout: r, now: T0, facts, times: step1Done, trackingSince: T0 - HOUR });
    expect(silent.status.state).toBe('halted');
    expect(silent.status.reason).toMatch(/^step 2 has 5 clusters failed or offline, more than the failure budget of 0/);
    expect(silent.status.reason).toMatch(/qa-us-1 \(offline\), uat-eu-1 \(offline\)$/);
    const lenient = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'], failure_budget: 5 });
    const within = evaluate({ rollout: lenient, now: T0, facts, times: step1Done, trackingSince: T0 - HOUR });
    expect(within.status.state).toBe('waiting');
  });

  it('a step not done within the progress deadline halts it; a longer deadline written later lifts it', () => {
    const times = new Map([...step1Done, [2, { released_in: 'rev-1', released_at: T0 - HOUR, done_at: null }]]);
    const facts = fetched([...STEP_1, ...STEP_2.slice(2)], T0);
    const p = evaluate({ rollout: r, now: T0, facts, times });
    expect(p.status).toEqual({
      state: 'halted',
      reason:
        'step 2 is not done within the progress deadline of 1h (released at 11:00 UTC): ' +
        '2 of 5 clusters have not fetched: dev-eu-2, dev-us-1',
    });
    const patient = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'], progress_deadline: '2h' });
    expect(evaluate({ rollout: patient, now: T0, facts, times }).status.state).toBe('running');
  });

  it('the deadline clock starts again after a restart: never shorter', () => {
    const facts = fetched(STEP_1, T0);
    expect(evaluate({ rollout: r, now: T0, facts, times: new Map() }).status.state).toBe('running');
  });

  it('a halted rollout gives no next release', () => {
    const facts = { 'dev-eu-1': { report: { state: 'failed' as const, at: T0, message: 'x' } } };
    const p = evaluate({ rollout: rollout({ waves: THREE_WAVES, released: 1 }), now: T0, facts });
    expect(p.status.state).toBe('halted');
    expect(p.status.next).toBeUndefined();
  });
});

describe('the computation', () => {
  it('yields between slices of members and gives the same result as at once', () => {
    const list = Array.from({ length: 25 }, (_, i) => cluster(`c-${String(i).padStart(2, '0')}`, 'prod'));
    const r = rollout({ waves: [{ name: 'prod', environments: ['prod'], batch: 10 }], released: 2 });
    const rollouts = new Map([[r.id, r]]);
    const sources = { clusters: clustersMap(list), platform_components: catalogMap(KPS), rollouts };
    const serving = rolloutView(sources).byComponent.get(KPS.id)!;
    const input = {
      serving,
      revision: 'rev-1',
      times: new Map(),
      facts: () => undefined,
      now: T0,
      offlineAfterMs: HOUR,
      trackingSince: T0,
    };
    const slices = progressSlices(input, 4);
    let yields = 0;
    let next = slices.next();
    for (; !next.done; next = slices.next()) yields++;
    // The 20 members of the two released steps, 4 a slice; the unreleased step's 5 are made once per plan.
    expect(yields).toBe(5);
    expect(next.value).toEqual(rolloutProgress(input));
    // That step is the same frozen object from one evaluation to the next, every member pending.
    const again = rolloutProgress({ ...input, now: T0 + HOUR });
    expect(again.steps[2]).toBe(next.value.steps[2]);
    expect(Object.isFrozen(again.steps[2].clusters)).toBe(true);
    expect(again.steps[2].clusters.map((c) => c.state)).toEqual(Array(5).fill('pending'));
    expect(again.steps[1]).not.toBe(next.value.steps[1]);
  });

  it('keys the kept times by rollout, component and set: a changed set starts over', () => {
    const a = rollout({ waves: THREE_WAVES });
    expect(rolloutFingerprint(rollout({ waves: THREE_WAVES, released: 3 }))).toBe(rolloutFingerprint(a));
    const otherSet = rollout({ waves: THREE_WAVES, set: { oci_tag: '67.5.1' } });
    expect(rolloutFingerprint(otherSet)).not.toBe(rolloutFingerprint(a));
  });
});
