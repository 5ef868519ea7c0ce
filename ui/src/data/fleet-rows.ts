// The fleet as the fleet page shows it: every cluster with its DNS name, environment and
// convergence state, joined from the fleet view (states) and the listing (environments), held
// column by column, with the text search looks in made lower case once. A search is one pass
// over plain strings: 50,000 clusters take a few milliseconds per keystroke. Pure: no DOM, no
// requests.
import type { ClusterSummary, FleetCluster, FleetState } from '../api/types.ts';

export interface FleetRows {
  count: number;
  id: string[];
  dns: string[];
  environment: (string | undefined)[];
  /** Undefined when the fleet view is not available. */
  state: (FleetState | undefined)[];
  lastSeen: (string | null)[];
  /** The cluster's fleet view entry: its polls per endpoint. */
  polls: (FleetCluster | undefined)[];
  /** `id` and `dns` in lower case, a newline between them so that no match spans both. */
  searchText: string[];
  environments: string[];
  /** Row number by cluster id. */
  byId: Map<string, number>;
}

export interface RowFilter {
  query: string;
  environment: string;
  state: string;
  /** With a rollout chosen: its clusters only, in `state` if one is given; by row (data/fleet-rollout.ts). */
  rollout?: { states: readonly (string | undefined)[]; state: string };
}

/** Joins the listing and the fleet view by id, in id order; either may be missing. */
export function buildRows(
  listing: readonly ClusterSummary[] | undefined,
  fleet: readonly FleetCluster[] | undefined,
): FleetRows {
  const byId = new Map<string, { summary?: ClusterSummary; fleet?: FleetCluster }>();
  for (const summary of listing ?? []) byId.set(summary.id, { summary });
  for (const cluster of fleet ?? []) {
    const entry = byId.get(cluster.id);
    if (entry) entry.fleet = cluster;
    else byId.set(cluster.id, { fleet: cluster });
  }
  const ids = [...byId.keys()];
  // Both answers come in id order; only when one held a cluster the other did not is a sort needed.
  if (listing && fleet && ids.length !== listing.length) ids.sort(compareIds);
  const rows: FleetRows = {
    count: ids.length,
    id: ids,
    dns: new Array<FleetRows['dns'][number]>(ids.length),
    environment: new Array<FleetRows['environment'][number]>(ids.length),
    state: new Array<FleetRows['state'][number]>(ids.length),
    lastSeen: new Array<FleetRows['lastSeen'][number]>(ids.length),
    polls: new Array<FleetRows['polls'][number]>(ids.length),
    searchText: new Array<FleetRows['searchText'][number]>(ids.length),
    environments: [],
    byId: new Map(),
  };
  const environments = new Set<string>();
  ids.forEach((id, i) => {
    const { summary, fleet: polls } = byId.get(id)!;
    const dns = summary?.cluster_dns ?? polls!.cluster_dns;
    rows.dns[i] = dns;
    rows.environment[i] = summary?.environment;
    if (summary) environments.add(summary.environment);
    rows.state[i] = polls?.state;
    rows.lastSeen[i] = polls?.last_seen ?? null;
    rows.polls[i] = polls;
    rows.searchText[i] = `${id}\n${dns}`.toLowerCase();
    rows.byId.set(id, i);
  });
  rows.environments = [...environments].sort();
  return rows;
}

/** The row numbers the filter keeps, in order. */
export function filterRows(rows: FleetRows, filter: RowFilter): Int32Array {
  const query = filter.query.trim().toLowerCase();
  const { environment, state, rollout } = filter;
  const kept = new Int32Array(rows.count);
  let n = 0;
  for (let i = 0; i < rows.count; i++) {
    if (environment && rows.environment[i] !== environment) continue;
    if (state && rows.state[i] !== state) continue;
    if (rollout && (rollout.states[i] === undefined || (rollout.state && rollout.states[i] !== rollout.state)))
      continue;
    if (query && !rows.searchText[i].includes(query)) continue;
    kept[n++] = i;
  }
  return kept.subarray(0, n);
}

export function countStates(rows: FleetRows): Record<FleetState, number> {
  const counts: Record<FleetState, number> = { up_to_date: 0, behind: 0, never_seen: 0 };
  for (const state of rows.state) if (state) counts[state]++;
  return counts;
}

/** The order the service lists clusters in: by id, compared as strings of UTF-16 units. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
