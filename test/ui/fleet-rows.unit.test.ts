// The fleet page's rows (ui/src/data/fleet-rows.ts): the fleet view and the listing joined by
// id, and the search and filters over them. Pure code of the UI, tested here without a browser.
import { describe, expect, it } from 'vitest';
import type { ClusterSummary, FleetCluster, FleetState } from '../../ui/src/api/types.ts';
import { buildRows, countStates, filterRows } from '../../ui/src/data/fleet-rows.ts';

const summary = (id: string, environment: ClusterSummary['environment']): ClusterSummary => ({
  id,
  cluster_name: id,
  cluster_dns: `${id}.Example.com`,
  environment,
});
const polled = (id: string, state: FleetState): FleetCluster => ({
  id,
  cluster_dns: `${id}.Example.com`,
  state,
  up_to_date: state === 'up_to_date',
  last_seen: state === 'never_seen' ? null : '2025-01-15T10:45:02.114Z',
  endpoints: {} as FleetCluster['endpoints'],
});

describe('the fleet rows', () => {
  const rows = buildRows(
    [summary('b-prod', 'prod'), summary('c-dev', 'dev'), summary('d-listed-only', 'qa')],
    [polled('a-polled-only', 'behind'), polled('b-prod', 'up_to_date'), polled('c-dev', 'never_seen')],
  );

  it('joins the listing and the fleet view by id, in id order, keeping a cluster either one lacks', () => {
    expect(rows.id).toEqual(['a-polled-only', 'b-prod', 'c-dev', 'd-listed-only']);
    expect(rows.environment).toEqual([undefined, 'prod', 'dev', 'qa']);
    expect(rows.state).toEqual(['behind', 'up_to_date', 'never_seen', undefined]);
    expect(rows.environments).toEqual(['dev', 'prod', 'qa']);
    expect(rows.byId.get('c-dev')).toBe(2);
    expect(countStates(rows)).toEqual({ up_to_date: 1, behind: 1, never_seen: 1 });
  });

  it('searches ids and DNS names without regard to case, never across the two', () => {
    const ids = (query: string, environment = '', state = '') =>
      [...filterRows(rows, { query, environment, state })].map((i) => rows.id[i]);
    expect(ids('PROD')).toEqual(['b-prod']);
    expect(ids('example.COM')).toHaveLength(4);
    expect(ids('dev.example')).toEqual(['c-dev']);
    expect(ids('onlyd-listed')).toEqual([]);
    expect(ids('', 'qa')).toEqual(['d-listed-only']);
    expect(ids('', '', 'behind')).toEqual(['a-polled-only']);
    expect(ids('  ')).toHaveLength(4);
  });

  it('lists the clusters of the listing alone when the fleet view is off', () => {
    const listed = buildRows([summary('x', 'dev')], undefined);
    expect(listed.id).toEqual(['x']);
    expect(listed.state).toEqual([undefined]);
  });
});
