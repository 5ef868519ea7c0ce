// The fleet as the alert rules ask about it, from the polls of every replica (with PEERS the
// others' are merged in, ./peer-polls-cache.ts): clusters by state, and clusters that polled
// before and have not for three poll intervals, by environment. A cluster's polls may land on
// any replica (behind an ingress, on every poll another), so only the merged polls say
// whether it went silent or is behind; gitops_config_fleet_clusters stays this replica's own.
// Counts only, never a label per cluster: environments are the domain's short fixed list.
import { type Gauge, Gauge as GaugeMetric, type Registry } from 'prom-client';
import { ENVIRONMENTS, type Environment } from '../domain/records.ts';
import type { ClusterPolls } from '../serving/fleet-polls.ts';
import { FLEET_STATES, type FleetStates, type FleetSummary } from '../serving/fleet-view.ts';
import type { PeerPollsCache } from './peer-polls-cache.ts';

/** A cluster silent for this many poll intervals is counted by gitops_config_fleet_silent_clusters. */
export const SILENT_AFTER_INTERVALS = 3;

export interface FleetSeriesSources {
  fleet: FleetStates;
  /** FLEET_POLL_INTERVAL: how often the clusters' providers poll. */
  pollIntervalMs: number;
  /** With PEERS: the other replicas' polls. */
  peerPolls?: PeerPollsCache;
  /** Which scrape of /metrics is collecting: both gauges of one scrape read one walk over the fleet. */
  scrape: () => number;
}

interface FleetTally {
  summary: FleetSummary;
  silent: Record<Environment, number>;
}

/**
 * Registers the two gauges; returns what gitops_config_fleet_clusters reads: without PEERS the
 * merged polls are this replica's own, and one walk over the fleet serves all three gauges.
 */
export function registerFleetSeries(
  prefix: string,
  registers: Registry[],
  sources: FleetSeriesSources,
): () => Promise<FleetSummary | undefined> {
  let last: { scrape: number; tally: Promise<FleetTally | undefined> } | undefined;
  const tally = (): Promise<FleetTally | undefined> => {
    const scrape = sources.scrape();
    if (last?.scrape !== scrape) last = { scrape, tally: countFleet(sources) };
    return last.tally;
  };
  const own = sources.peerPolls ? () => sources.fleet.summary() : async () => (await tally())?.summary;
  new GaugeMetric({
    name: `${prefix}fleet_merged_clusters`,
    help:
      "Clusters of the served revision by what the replicas answered them, every replica's polls merged " +
      "(PEERS; the others' gathered at most a minute ago): up_to_date, behind, never_seen. " +
      'Without PEERS the same as gitops_config_fleet_clusters.',
    labelNames: ['state'] as const,
    registers,
    async collect(this: Gauge<'state'>) {
      const counted = await tally();
      for (const state of FLEET_STATES) this.set({ state }, counted?.summary[state] ?? 0);
    },
  });
  new GaugeMetric({
    name: `${prefix}fleet_silent_clusters`,
    help:
      'Clusters of the served revision that were answered a poll before (by any replica) and none for ' +
      `${SILENT_AFTER_INTERVALS} poll intervals (FLEET_POLL_INTERVAL), by environment.`,
    labelNames: ['environment'] as const,
    registers,
    async collect(this: Gauge<'environment'>) {
      const counted = await tally();
      for (const environment of ENVIRONMENTS) this.set({ environment }, counted?.silent[environment] ?? 0);
    },
  });
  return own;
}

async function countFleet({ fleet, pollIntervalMs, peerPolls }: FleetSeriesSources): Promise<FleetTally | undefined> {
  const polls = peerPolls ? await peerPolls.merged(fleet.polls) : fleet.polls;
  const silentBefore = Date.now() - SILENT_AFTER_INTERVALS * pollIntervalMs;
  let silent = noneSilent();
  const summary = await fleet.summary(polls, {
    restart: () => (silent = noneSilent()),
    visit: (cluster, clusterPolls) => {
      if (clusterPolls !== undefined && lastPoll(clusterPolls) < silentBefore) silent[cluster.environment]++;
    },
  });
  return summary && { summary, silent };
}

function noneSilent(): Record<Environment, number> {
  return Object.fromEntries(ENVIRONMENTS.map((environment) => [environment, 0])) as Record<Environment, number>;
}

/** The cluster's newest answered poll on any endpoint, in ms since the epoch. */
function lastPoll(polls: ClusterPolls): number {
  let newest = 0;
  for (const at of Object.values(polls.at)) if (at > newest) newest = at;
  return newest;
}
