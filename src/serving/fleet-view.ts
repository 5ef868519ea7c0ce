// The fleet view: for every cluster of the served revision, whether the bodies it last polled
// are the ones it would get now. A cluster is
//   never_seen  no poll of it has been answered (by this replica),
//   up_to_date  every endpoint it polls got the current body on its last poll,
//   behind      some endpoint it polls got a body that is no longer current.
// An endpoint a cluster never polled does not make it behind: a cluster may use only some of
// the three. Bodies are compared by ETag (a hash of the bytes), so a publication that leaves a
// cluster's bytes alone leaves it up_to_date. The same walk gives GET /api/v2/gitops/fleet and
// the gitops_config_fleet_clusters gauge, so the two always agree — on one replica. Among
// replicas (PEERS) the view is asked with every replica's polls merged (./merged-polls.ts),
// while the gauge stays this replica's own.
import { PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../domain/projections/index.ts';
import type { Cluster } from '../domain/records.ts';
import { yieldToEventLoop } from '../store/runner/event-loop.ts';
import type { ClusterPolls, FleetPolls, PollLookup } from './fleet-polls.ts';
import type { ResponseTable } from './response-table.ts';
import type { CurrentResponses } from './current-responses.ts';

export const FLEET_STATES = ['up_to_date', 'behind', 'never_seen'] as const;
export type FleetState = (typeof FLEET_STATES)[number];

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

export interface EndpointPollView {
  /** ISO-8601 time of the last answered poll, or null when the cluster never polled this endpoint. */
  last_poll: string | null;
  /** The ETag of the body that poll got (the identity ETag; a gzip answer's tag adds "-gzip"). */
  etag_served: string | null;
  /** The ETag of the body served now; null for an endpoint the cluster does not poll, or an answer over 900 KiB. */
  etag_current: string | null;
  /** Whether the last poll got the current body; null when never polled. */
  up_to_date: boolean | null;
}

export interface ClusterPollView {
  id: string;
  cluster_dns: string;
  state: FleetState;
  up_to_date: boolean;
  /** ISO-8601 time of the cluster's last answered poll on any endpoint, or null. */
  last_seen: string | null;
  endpoints: Record<PerClusterEndpoint, EndpointPollView>;
}

export type FleetSummary = { clusters: number } & Record<FleetState, number>;

export interface FleetView {
  /** The served revision the current ETags are those of. */
  revision: string;
  /** Counts over the whole fleet, whatever the filter. */
  summary: FleetSummary;
  clusters: ClusterPollView[];
}

/**
 * Clusters judged between two turns of the event loop. Judging a cluster is a few lookups, but
 * the first look after a publication prepares (encodes) each changed body it compares, which
 * the cluster's next poll then finds ready.
 */
const SLICE = 500;
/** A publication during the walk starts it again on the new revision, at most this many times. */
const RESTARTS = 3;

/**
 * Sees every served cluster of one walk, with its last polls; a walk started again on a newer revision calls restart()
 * first.
 */
export interface FleetVisitor {
  restart(): void;
  visit(cluster: Cluster, polls: ClusterPolls | undefined): void;
}

type Visit = (cluster: Cluster, state: FleetState, polls: ClusterPolls | undefined, current: (string | null)[]) => void;

export class FleetStates {
  readonly #responses: CurrentResponses;
  readonly #polls: FleetPolls;

  constructor(responses: CurrentResponses, polls: FleetPolls) {
    this.#responses = responses;
    this.#polls = polls;
  }

  /**
   * How many clusters are in each state; undefined before the first revision is served.
   * `polls`: other replicas' merged in; `visitor` sees each cluster with its polls on the way.
   */
  async summary(polls: PollLookup = this.#polls, visitor?: FleetVisitor): Promise<FleetSummary | undefined> {
    const visit: Visit | undefined =
      visitor && ((cluster, _state, clusterPolls) => visitor.visit(cluster, clusterPolls));
    return (await this.#walk(polls, visitor && (() => visitor.restart()), visit))?.summary;
  }

  /** This replica's own poll registry. */
  get polls(): FleetPolls {
    return this.#polls;
  }

  /**
   * Every cluster (those in `state` only, when given) with its polls, and the summary of the
   * whole fleet; `polls` when the polls of other replicas are merged in.
   */
  async view(state?: FleetState, polls: PollLookup = this.#polls): Promise<FleetView | undefined> {
    let clusters: ClusterPollView[] = [];
    const walked = await this.#walk(
      polls,
      () => (clusters = []),
      (cluster, judged, polls, current) => {
        if (state === undefined || judged === state) clusters.push(clusterView(cluster, judged, polls, current));
      },
    );
    return walked && { revision: walked.table.revision, summary: walked.summary, clusters };
  }

  /** One pass over the served clusters, in id order; `restart` is called before each (re)start. */
  async #walk(
    lookup: PollLookup,
    restart?: () => void,
    visit?: Visit,
  ): Promise<{ table: ResponseTable; summary: FleetSummary } | undefined> {
    for (let attempt = 0; ; attempt++) {
      const table = this.#responses.current();
      if (!table) return undefined;
      restart?.();
      const summary: FleetSummary = { clusters: 0, up_to_date: 0, behind: 0, never_seen: 0 };
      const current: (string | null)[] = [];
      let polled = 0;
      let superseded = false;
      for (const cluster of table.snapshot.clusters.values()) {
        if (++summary.clusters % SLICE === 0) {
          await yieldToEventLoop();
          // Compared with a revision no longer served, the states would be stale on arrival.
          superseded = this.#responses.current() !== table && attempt < RESTARTS;
          if (superseded) break;
        }
        const polls = lookup.of(cluster.id);
        if (polls) polled++;
        const state = judge(table, cluster, polls, current);
        summary[state]++;
        visit?.(cluster, state, polls, current);
      }
      if (superseded) continue;
      if (lookup === this.#polls && this.#polls.size > polled) this.#polls.prune(table.snapshot);
      return { table, summary };
    }
  }
}

/** The cluster's state; `current` gets the current ETag of each endpoint it polled (null for the others). */
function judge(
  table: ResponseTable,
  cluster: Cluster,
  polls: ClusterPolls | undefined,
  current: (string | null)[],
): FleetState {
  if (!polls) return 'never_seen';
  let upToDate = true;
  for (let i = 0; i < ENDPOINTS.length; i++) {
    const endpoint = ENDPOINTS[i];
    if (polls.at[endpoint] === 0) {
      current[i] = null;
      continue;
    }
    const prepared = table.forCluster(endpoint, cluster.cluster_dns);
    current[i] = prepared?.kind === 'body' ? prepared.etag : null;
    if (polls.etag[endpoint] !== current[i]) upToDate = false;
  }
  return upToDate ? 'up_to_date' : 'behind';
}

function clusterView(
  cluster: Cluster,
  state: FleetState,
  polls: ClusterPolls | undefined,
  current: (string | null)[],
): ClusterPollView {
  let lastSeen = 0;
  const endpoints = {} as Record<PerClusterEndpoint, EndpointPollView>;
  for (let i = 0; i < ENDPOINTS.length; i++) {
    const endpoint = ENDPOINTS[i];
    const at = polls?.at[endpoint] ?? 0;
    lastSeen = Math.max(lastSeen, at);
    endpoints[endpoint] =
      at === 0
        ? { last_poll: null, etag_served: null, etag_current: null, up_to_date: null }
        : {
            last_poll: new Date(at).toISOString(),
            etag_served: polls!.etag[endpoint]!,
            etag_current: current[i] ?? null,
            up_to_date: polls!.etag[endpoint] === current[i],
          };
  }
  return {
    id: cluster.id,
    cluster_dns: cluster.cluster_dns,
    state,
    up_to_date: state === 'up_to_date',
    last_seen: lastSeen === 0 ? null : new Date(lastSeen).toISOString(),
    endpoints,
  };
}
