// The fleet filtered by a rollout (ui/src/data/fleet-rollout.ts and the rollout part of
// filterRows): each cluster's state in the rollout laid out by fleet row, counted by state,
// and the rows kept for a rollout and a state. Pure code of the UI, tested without a browser.
import { describe, expect, it } from 'vitest';
import type { ClusterSummary, RolloutDetail } from '../../ui/src/api/types.ts';
import { rolloutStatesOf } from '../../ui/src/data/fleet-rollout.ts';
import { buildRows, filterRows } from '../../ui/src/data/fleet-rows.ts';

const summary = (id: string, environment: ClusterSummary['environment']): ClusterSummary => ({
  id,
  cluster_name: id,
  cluster_dns: `${id}.example.com`,
  environment,
});
const member = (id: string, state: RolloutDetail['steps'][number]['clusters'][number]['state']) => ({
  id,
  state,
  since: '2025-03-04T14:00:00Z',
});

const rows = buildRows(
  [summary('dev-1', 'dev'), summary('other', 'dev'), summary('prod-1', 'prod'), summary('qa-1', 'qa')],
  undefined,
);
const detail = {
  id: 'kps-67-5',
  steps: [
    { step: 1, wave: 'canary', clusters: [member('dev-1', 'fetched')] },
    {
      step: 2,
      wave: 'rest',
      clusters: [member('qa-1', 'pending'), member('prod-1', 'failed'), member('gone', 'offline')],
    },
  ],
} as unknown as RolloutDetail;

describe('the fleet filtered by a rollout', () => {
  const states = rolloutStatesOf(rows, detail);

  it("lays each member's state out by fleet row, counts them, and leaves other clusters out", () => {
    expect(states.rollout).toBe('kps-67-5');
    expect(rows.id).toEqual(['dev-1', 'other', 'prod-1', 'qa-1']);
    expect(states.state).toEqual(['fetched', undefined, 'failed', 'pending']);
    // A member the fleet no longer lists has no row, and is not counted.
    expect(states.counts).toEqual({
      pending: 1,
      released: 0,
      fetched: 1,
      succeeded: 0,
      failed: 1,
      offline: 0,
      pinned: 0,
    });
  });

  it("keeps the rollout's clusters, those in the state chosen, with the other filters", () => {
    const ids = (filter: Parameters<typeof filterRows>[1]) => [...filterRows(rows, filter)].map((r) => rows.id[r]);
    const base = { query: '', environment: '', state: '' };
    expect(ids(base)).toEqual(['dev-1', 'other', 'prod-1', 'qa-1']);
    expect(ids({ ...base, rollout: { states: states.state, state: '' } })).toEqual(['dev-1', 'prod-1', 'qa-1']);
    expect(ids({ ...base, rollout: { states: states.state, state: 'failed' } })).toEqual(['prod-1']);
    expect(ids({ ...base, environment: 'dev', rollout: { states: states.state, state: '' } })).toEqual(['dev-1']);
    expect(ids({ ...base, rollout: { states: states.state, state: 'offline' } })).toEqual([]);
  });
});
