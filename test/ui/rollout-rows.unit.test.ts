// A rollout's page's rows (ui/src/data/rollout-rows.ts): the service's steps grouped in waves,
// each step's clusters counted by state, every cluster in one row, and the search and filters
// over them; and where one cluster is in a rollout (ui/src/data/cluster-rollouts.ts), for its
// page. Pure code of the UI, tested here without a browser.
import { describe, expect, it } from 'vitest';
import type { RolloutDetail, RolloutStep } from '../../ui/src/api/types.ts';
import { clusterInRollout } from '../../ui/src/data/cluster-rollouts.ts';
import {
  describeCounts,
  emptyCounts,
  filterRolloutRows,
  layOutRollout,
  stepPhase,
} from '../../ui/src/data/rollout-rows.ts';

const AT = '2025-03-04T12:00:00Z';
type Members = RolloutStep['clusters'];
const step = (n: number, wave: string, clusters: Members, times: Partial<RolloutStep> = {}): RolloutStep => ({
  step: n,
  wave,
  released_in: null,
  released_at: null,
  done_at: null,
  soak_ends_at: null,
  clusters,
  ...times,
});

const DETAIL: RolloutDetail = {
  id: 'kps-67-5',
  component: 'kube-prometheus-stack',
  set: { oci_tag: '67.5.0' },
  state: 'running',
  reason: '1 of 2 clusters has not fetched: qa-eu-1',
  released: 2,
  clusters: { ...emptyCounts(), fetched: 2, released: 1, pending: 2 },
  steps: [
    step(1, 'canary', [{ id: 'dev-eu-1', state: 'fetched', since: AT }], { released_at: AT, done_at: AT }),
    step(
      2,
      'non-prod',
      [
        { id: 'dev-us-1', state: 'fetched', since: AT },
        { id: 'qa-eu-1', state: 'released', since: AT },
      ],
      { released_at: AT },
    ),
    step(3, 'prod', [{ id: 'prod-EU-1', state: 'pending', since: null }]),
    step(4, 'prod', [{ id: 'prod-us-1', state: 'offline', since: AT, message: 'no poll since 11:00 UTC' }]),
  ],
};

describe("a rollout's rows", () => {
  const { rows, waves, waveOf } = layOutRollout(DETAIL);

  it('groups the steps in their waves, in order, each step with its clusters counted by state', () => {
    expect(waves.map((w) => [w.name, w.size, w.steps.map((s) => s.step.step)])).toEqual([
      ['canary', 1, [1]],
      ['non-prod', 2, [2]],
      ['prod', 2, [3, 4]],
    ]);
    expect(waves[1].steps[0].counts).toEqual({ ...emptyCounts(), fetched: 1, released: 1 });
    expect(waveOf.get(4)).toBe('prod');
  });

  it('holds every cluster in one row, in step order, with its step, state, since and message', () => {
    expect(rows.count).toBe(5);
    expect(rows.id).toEqual(['dev-eu-1', 'dev-us-1', 'qa-eu-1', 'prod-EU-1', 'prod-us-1']);
    expect([...rows.step]).toEqual([1, 2, 2, 3, 4]);
    expect(rows.state).toEqual(['fetched', 'fetched', 'released', 'pending', 'offline']);
    expect(rows.since[3]).toBeNull();
    expect(rows.message[4]).toBe('no poll since 11:00 UTC');
  });

  it('filters by step, by state and by a search in the ids, case aside', () => {
    const ids = (filter: { query?: string; step?: number; state?: string }) =>
      [...filterRolloutRows(rows, { query: '', step: 0, state: '', ...filter })].map((i) => rows.id[i]);
    expect(ids({})).toEqual(rows.id);
    expect(ids({ step: 2 })).toEqual(['dev-us-1', 'qa-eu-1']);
    expect(ids({ state: 'fetched' })).toEqual(['dev-eu-1', 'dev-us-1']);
    expect(ids({ query: ' PROD-eu ' })).toEqual(['prod-EU-1']);
    expect(ids({ step: 2, state: 'offline' })).toEqual([]);
  });

  it('says the counts in words, the states with clusters only', () => {
    expect(describeCounts(DETAIL.clusters)).toBe('2 pending, 1 released, 2 fetched');
    expect(describeCounts({ ...emptyCounts(), fetched: 12_345 })).toBe('12,345 fetched');
    expect(describeCounts(emptyCounts())).toBe('no cluster');
  });

  it('says where a step stands: later, next, released, soaking until its soak ends, done', () => {
    const now = Date.parse('2025-03-04T13:00:00Z');
    const [s1, s2, s3, s4] = DETAIL.steps as [RolloutStep, RolloutStep, RolloutStep, RolloutStep];
    expect(stepPhase(s1, 2, now)).toBe('done');
    expect(stepPhase({ ...s1, soak_ends_at: '2025-03-04T14:00:00Z' }, 2, now)).toBe('soaking');
    expect(stepPhase({ ...s1, soak_ends_at: '2025-03-04T12:30:00Z' }, 2, now)).toBe('done');
    expect(stepPhase(s2, 2, now)).toBe('released');
    expect(stepPhase(s3, 2, now)).toBe('next');
    expect(stepPhase(s4, 2, now)).toBe('pending');
  });
});

describe('a cluster in a rollout', () => {
  it('is found in its step, with its wave and state, and the rollout as a whole; a cluster in no wave is not', () => {
    expect(clusterInRollout(DETAIL, 'prod-us-1')).toEqual({
      rollout: { id: 'kps-67-5', component: 'kube-prometheus-stack', state: 'running', reason: DETAIL.reason },
      step: 4,
      wave: 'prod',
      member: { id: 'prod-us-1', state: 'offline', since: AT, message: 'no poll since 11:00 UTC' },
    });
    expect(clusterInRollout(DETAIL, 'qa-eu-1')).toMatchObject({
      step: 2,
      wave: 'non-prod',
      member: { state: 'released' },
    });
    expect(clusterInRollout(DETAIL, 'prod-eu-1')).toBeUndefined();
  });
});
