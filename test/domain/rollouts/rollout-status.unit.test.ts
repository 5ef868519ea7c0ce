// The state of a rollout and its reason in words (src/domain/rollouts/rollout-status.ts), the
// message of its next release, and the shapes the status is shown in (rollout-shapes.ts).
import { describe, expect, it } from 'vitest';
import { rolloutDetail, rolloutListItem } from '../../../src/domain/rollouts/rollout-shapes.ts';
import { clockTime } from '../../../src/domain/rollouts/rollout-words.ts';
import type { StepTimes } from '../../../src/domain/rollouts/step-progress.ts';
import { cluster, KPS, rollout, THREE_WAVES } from '../../fixtures/rollout-fleet.ts';
import { evaluate, fetched, HOUR, MINUTE, STEP_1, STEP_2, STEP_3, STEP_4, T0 } from '../../helpers/rollout-progress.ts';

const ALL = [...STEP_1, ...STEP_2, ...STEP_3, ...STEP_4];
const doneAt = (at: number): StepTimes => ({ released_in: 'rev-0', released_at: at - MINUTE, done_at: at });
/** Steps 1..n seen done at the given times. */
const kept = (...done: number[]) => new Map(done.map((at, i) => [i + 1, doneAt(at)]));

describe('the state of a rollout', () => {
  it('is ready to release step 1 when nothing is released, with the message of that release', () => {
    const p = evaluate({ rollout: rollout({ waves: THREE_WAVES }), now: T0 });
    expect(p.status).toEqual({
      state: 'ready',
      reason: 'step 1 (wave canary, 1 cluster) may be released',
      next: {
        released: 1,
        step: p.plan.steps[0],
        message: 'rollout kps-67-5: release step 1 (wave canary, 1 cluster)',
      },
    });
  });

  it('is running while a released step is not done, naming the first five that have not fetched', () => {
    const r = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });
    const p = evaluate({ rollout: r, now: T0, times: kept(T0 - HOUR) });
    expect(p.status).toEqual({
      state: 'running',
      reason: '5 of 5 clusters have not fetched: dev-eu-2, dev-us-1, qa-eu-1, qa-us-1, uat-eu-1',
    });
    const wide = Array.from({ length: 8 }, (_, i) => cluster(`dev-${i}`, 'dev'));
    const all = rollout({ waves: [{ name: 'dev', environments: ['dev'] }], released: 1 });
    const many = evaluate({ rollout: all, now: T0, clusters: wide, facts: fetched(['dev-3'], T0) });
    expect(many.status.reason).toBe('7 of 8 clusters have not fetched: dev-0, dev-1, dev-2, dev-4, dev-5 and 2 more');
  });

  it('waits for a soak to end, saying when in UTC', () => {
    const r = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });
    const p = evaluate({ rollout: r, now: T0 + HOUR, times: kept(T0 - HOUR, T0 + 30 * MINUTE) });
    expect(p.status).toEqual({ state: 'waiting', reason: 'soak of step 2 ends at 14:30 UTC' });
    expect(p.steps[1].soakEndsAt).toBe(T0 + 150 * MINUTE);
  });

  it('waits for the approval of a wave before its first step, and not before its next ones', () => {
    const r = rollout({ waves: THREE_WAVES, released: 1 });
    const p = evaluate({ rollout: r, now: T0, times: kept(T0 - HOUR) });
    // Nothing but the approval holds step 2 back since step 1 was done (its wave has no soak).
    expect(p.status).toEqual({
      state: 'waiting',
      reason: 'waits for approval of wave non-prod',
      approval: { wave: 'non-prod', since: T0 - HOUR },
    });
    const waves = THREE_WAVES.map((w) => ({ ...w, approval: true }));
    // Before step 1 nothing dates the wait: whoever watches keeps when it first saw it.
    expect(evaluate({ rollout: rollout({ waves }), now: T0 }).status.approval).toEqual({ wave: 'canary', since: null });
    const gated = rollout({ waves, released: 3, approved: ['canary', 'non-prod', 'prod'] });
    const next = evaluate({ rollout: gated, now: T0 + 4 * HOUR, times: kept(T0 - 3 * HOUR, T0 - 2 * HOUR, T0) });
    expect(next.status.reason).toBe('step 4 (wave prod, 3 clusters) may be released');
    expect(next.status.next!.message).not.toMatch(/approved/);
  });

  it('says both when a soak runs and the next wave waits for approval', () => {
    const waves = [{ ...THREE_WAVES[0], soak: '30m' }, ...THREE_WAVES.slice(1)];
    const p = evaluate({ rollout: rollout({ waves, released: 1 }), now: T0, times: kept(T0 - 10 * MINUTE) });
    expect(p.status).toEqual({
      state: 'waiting',
      reason: 'soak of step 1 ends at 12:20 UTC, then waits for approval of wave non-prod',
      approval: { wave: 'non-prod', since: T0 + 20 * MINUTE },
    });
  });

  it('is ready once approved, with the evidence in the message', () => {
    const r = rollout({ waves: THREE_WAVES, released: 1, approved: ['non-prod'] });
    const p = evaluate({ rollout: r, now: T0, times: kept(Date.parse('2025-03-04T11:02:05Z')) });
    expect(p.status.state).toBe('ready');
    expect(p.status.reason).toBe('step 2 (wave non-prod, 5 clusters) may be released');
    expect(p.status.next!.message).toBe(
      'rollout kps-67-5: release step 2 (wave non-prod, 5 clusters) \u2014 ' +
        'step 1 done at 2025-03-04T11:02:05Z, no soak, wave non-prod approved',
    );
  });

  it('is ready when the soak passed, and the message says which soak', () => {
    const r = rollout({ waves: THREE_WAVES, released: 3, approved: ['non-prod'] });
    const p = evaluate({ rollout: r, now: T0 + 30 * MINUTE, times: kept(T0 - 3 * HOUR, T0 - HOUR, T0) });
    expect(p.status.next).toMatchObject({
      released: 4,
      message:
        'rollout kps-67-5: release step 4 (wave prod, 3 clusters) \u2014 step 3 done at 2025-03-04T12:00:00Z, ' +
        'soak 30m passed',
    });
  });

  it('is complete when every step is released, done and soaked; waiting while the last soak runs', () => {
    const r = rollout({ waves: THREE_WAVES, released: 4, approved: ['non-prod'] });
    const times = kept(T0 - 5 * HOUR, T0 - 4 * HOUR, T0 - HOUR, T0);
    expect(evaluate({ rollout: r, now: T0 + 29 * MINUTE, times }).status).toEqual({
      state: 'waiting',
      reason: 'soak of step 4 ends at 12:30 UTC',
    });
    expect(evaluate({ rollout: r, now: T0 + 30 * MINUTE, times }).status).toEqual({
      state: 'complete',
      reason:
        'all 4 steps released, done and soaked: completing it folds set into the catalog entry ' +
        '"kube-prometheus-stack"',
    });
  });

  it('is complete when it has no step at all', () => {
    const r = rollout({ waves: [{ name: 'nobody', clusters: ['ghost'] }] });
    expect(evaluate({ rollout: r, now: T0 }).status.state).toBe('complete');
  });

  it('is paused when its record says so, even when the next step is ready', () => {
    const r = rollout({ waves: THREE_WAVES, released: 1, approved: ['non-prod'], paused: true });
    const p = evaluate({ rollout: r, now: T0, times: kept(T0 - HOUR) });
    expect(p.status).toEqual({ state: 'paused', reason: 'paused with 1 of 4 steps released' });
  });
});

describe('which state wins', () => {
  const failed = { report: { state: 'failed' as const, at: T0, message: 'UpgradeFailed' } };

  it('complete before halted: a finished rollout is complete whatever its clusters report now', () => {
    const r = rollout({ waves: THREE_WAVES, released: 4, approved: ['non-prod'], paused: true });
    const times = kept(T0 - 5 * HOUR, T0 - 4 * HOUR, T0 - 3 * HOUR, T0 - 2 * HOUR);
    expect(evaluate({ rollout: r, now: T0, times, facts: { 'prod-eu-3': failed } }).status.state).toBe('complete');
  });

  it('halted before paused, paused before running, running before waiting, waiting before ready', () => {
    const base = { waves: THREE_WAVES, approved: ['non-prod'] };
    const stopped = rollout({ ...base, released: 2, paused: true });
    const halted = evaluate({ rollout: stopped, now: T0, facts: { 'qa-eu-1': failed } });
    expect(halted.status.state).toBe('halted');
    const paused = evaluate({ rollout: rollout({ ...base, released: 2, paused: true }), now: T0 });
    expect(paused.status.state).toBe('paused');
    // Step 1 soaks (wave canary with a soak) while step 2, forced ahead of it, runs.
    const waves = [{ ...THREE_WAVES[0], soak: '1h' }, ...THREE_WAVES.slice(1)];
    const forced = rollout({ ...base, waves, released: 2 });
    expect(evaluate({ rollout: forced, now: T0, times: kept(T0) }).status.state).toBe('running');
    const soaking = rollout({ ...base, released: 2 });
    const done = evaluate({ rollout: soaking, now: T0, times: kept(T0 - HOUR, T0) });
    expect(done.status.state).toBe('waiting');
    expect(evaluate({ rollout: soaking, now: T0 + 2 * HOUR, times: done.times }).status.state).toBe('ready');
  });
});

describe('times in reasons', () => {
  it('are HH:MM UTC on the same UTC day as now, with the date on another day', () => {
    const now = Date.parse('2025-03-04T23:50:00Z');
    expect(clockTime(Date.parse('2025-03-04T23:59:59Z'), now)).toBe('23:59 UTC');
    expect(clockTime(Date.parse('2025-03-05T00:20:00Z'), now)).toBe('2025-03-05 00:20 UTC');
    expect(clockTime(Date.parse('2025-03-03T08:05:00Z'), now)).toBe('2025-03-03 08:05 UTC');
  });

  it('a soak ending tomorrow says its date', () => {
    const r = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });
    const late = Date.parse('2025-03-04T23:00:00Z');
    const p = evaluate({ rollout: r, now: late, times: kept(late - HOUR, late - 10 * MINUTE) });
    expect(p.status.reason).toBe('soak of step 2 ends at 2025-03-05 00:50 UTC');
  });
});

describe('the shapes', () => {
  const r = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });
  const report = { state: 'failed' as const, at: T0, message: 'boom' };
  const facts = { ...fetched([...STEP_1, 'dev-eu-2'], T0), 'qa-eu-1': { report } };
  const p = evaluate({ rollout: r, now: T0, facts, times: kept(T0 - HOUR), revision: 'abc123' });

  it('of the list: counts of every state', () => {
    expect(rolloutListItem(p)).toEqual({
      id: 'kps-67-5',
      component: KPS.id,
      set: { component_version: '67.5.0', oci_tag: '67.5.0' },
      state: 'halted',
      reason: 'step 2 has 1 cluster failed or offline, more than the failure budget of 0: qa-eu-1 (failed: boom)',
      released: 2,
      steps: 4,
      clusters: { pending: 6, released: 3, fetched: 2, succeeded: 0, failed: 1, offline: 0, pinned: 0 },
    });
    expect(Object.values(rolloutListItem(p).clusters).reduce((a, b) => a + b, 0)).toBe(ALL.length);
  });

  it('of one rollout: its steps in order, with their times and clusters', () => {
    const detail = rolloutDetail(p);
    expect(detail.steps.map((s) => [s.step, s.wave, s.released_in, s.released_at, s.done_at, s.soak_ends_at])).toEqual([
      [1, 'canary', 'rev-0', '2025-03-04T10:59:00.000Z', '2025-03-04T11:00:00.000Z', '2025-03-04T11:00:00.000Z'],
      [2, 'non-prod', 'abc123', '2025-03-04T12:00:00.000Z', null, null],
      [3, 'prod', null, null, null, null],
      [4, 'prod', null, null, null, null],
    ]);
    expect(detail.steps[1].clusters).toEqual([
      { id: 'dev-eu-2', state: 'fetched', since: '2025-03-04T12:00:00.000Z' },
      { id: 'dev-us-1', state: 'released', since: '2025-03-04T12:00:00.000Z' },
      { id: 'qa-eu-1', state: 'failed', since: '2025-03-04T12:00:00.000Z', message: 'boom' },
      { id: 'qa-us-1', state: 'released', since: '2025-03-04T12:00:00.000Z' },
      { id: 'uat-eu-1', state: 'released', since: '2025-03-04T12:00:00.000Z' },
    ]);
    expect(detail.steps[2].clusters[0]).toEqual({ id: 'prod-ap-1', state: 'pending', since: null });
    const { steps: _steps, ...rest } = detail;
    const { steps: _count, ...listed } = rolloutListItem(p);
    expect(rest).toEqual(listed);
    // JSON as served: nothing undefined left in it.
    expect(JSON.parse(JSON.stringify(detail))).toEqual(detail);
  });
});
