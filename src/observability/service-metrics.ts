// The Prometheus series of one service instance (docs/decisions/0012-operations.md), in a registry of its
// own, so that several instances in one process (the tests) do not share counts. What changes
// per request is counted in plain numbers (./request-counts.ts) and what describes the state
// (the served revision, the fleet) is read when /metrics is scraped; only rare events (a
// reload, a write) are counted by prom-client as they happen, from the store runner's events.
//
// The series the alert rules (deploy/prometheus/) need beyond these are registered by
// ./store-series.ts, ./fleet-series.ts and ./answer-limit-series.ts; the rollouts' by
// ./rollout-series.ts, from their evaluations (followRollouts).
//
// prom-client's standard process and Node.js series (process_cpu_seconds_total,
// nodejs_heap_size_used_bytes, ...) keep their standard names, without the gitops_config_
// prefix: dashboards and alerts made for any Node.js process then work unchanged.
import { registerReceiverSeries } from './receiver-series.ts';
import type { NoticeCounts } from '../serving/receivers/receiver-notifier.ts';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { IGNORED_ANNOUNCEMENT_REASONS } from '../peers/announcement-limit.ts';
import { PEER_FAILURE_REASONS } from '../peers/peer-client.ts';
import type { Peers } from '../peers/peers.ts';
import type { RolloutEvaluations } from '../serving/rollouts/rollout-evaluations.ts';
import { FLEET_STATES, type FleetStates } from '../serving/fleet-view.ts';
import type { StoreRunner } from '../store/runner/store-runner.ts';
import { registerAnswerLimitSeries } from './answer-limit-series.ts';
import { DurationHistogram } from './duration-histogram.ts';
import { registerFleetSeries } from './fleet-series.ts';
import { PeerPollsCache } from './peer-polls-cache.ts';
import { RequestCounts } from './request-counts.ts';
import { RolloutSeries } from './rollout-series.ts';
import { EventSeries } from './event-series.ts';
import type { ClusterEvents } from '../serving/cluster-events.ts';
import { registerStoreSeries, type StoreSeriesSource } from './store-series.ts';

export const METRIC_PREFIX = 'gitops_config_';

export interface MetricSources {
  store: Pick<StoreRunner, 'onLoad'> & StoreSeriesSource;
  fleet: FleetStates;
  /** FLEET_POLL_INTERVAL: how often the clusters' providers poll, in ms. */
  pollIntervalMs: number;
  /** The other replicas (PEERS); without them their series are not there. */
  peers?: Pick<Peers, 'onFailure' | 'onIgnored' | 'count' | 'gatherPolls'>;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  /** Answered requests: the HTTP layer records into it. */
  readonly requests = new RequestCounts();
  /** Scrapes of /metrics so far: series read in one scrape may share work (./fleet-series.ts). */
  #scrapes = 0;
  readonly #rollouts: RolloutSeries;
  #receivers: (() => NoticeCounts) | undefined;
  readonly #events: EventSeries;

  constructor({ store, fleet, pollIntervalMs, peers }: MetricSources) {
    const registers = [this.registry];
    const requests = this.requests;

    new Counter({
      name: `${METRIC_PREFIX}http_requests_total`,
      help:
        'HTTP requests answered, by route template (never a cluster name; "unmatched" for a path no route matches), ' +
        'method, status code ' +
        'and kind of caller (service, cluster, person; anonymous without a valid credential), never its name.',
      labelNames: ['route', 'method', 'code', 'caller'] as const,
      registers,
      collect() {
        this.reset();
        for (const counts of requests.all()) {
          for (let i = 0; i < counts.statuses.length; i++) {
            this.inc(
              {
                route: counts.route,
                method: counts.method,
                code: String(counts.statuses[i]),
                caller: counts.callers[i],
              },
              counts.answers[i],
            );
          }
        }
      },
    });
    this.registry.registerMetric(
      new DurationHistogram(
        `${METRIC_PREFIX}http_request_duration_seconds`,
        'Time from a request reaching its handler to its answer being handed to the socket, by route template and ' +
          'method.',
        requests,
      ).asMetric(),
    );

    new Gauge({
      name: `${METRIC_PREFIX}revision_info`,
      help: 'The revision served (X-Config-Revision): always 1, the revision is the label.',
      labelNames: ['revision'] as const,
      registers,
      collect() {
        this.reset();
        const revision = store.published()?.snapshot.revision;
        if (revision !== undefined) this.set({ revision }, 1);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}last_publish_timestamp_seconds`,
      help:
        'When the served revision was published (a reload or a write), in seconds since the epoch; 0 before the ' +
        'first.',
      registers,
      collect() {
        this.set((store.published()?.publishedAt.getTime() ?? 0) / 1000);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}clusters`,
      help: 'Clusters in the served revision.',
      registers,
      collect() {
        this.set(store.published()?.snapshot.clusters.size ?? 0);
      },
    });
    const peerPolls = peers && new PeerPollsCache(() => peers.gatherPolls());
    const ownFleet = registerFleetSeries(METRIC_PREFIX, registers, {
      fleet,
      pollIntervalMs,
      peerPolls,
      scrape: () => this.#scrapes,
    });
    new Gauge({
      name: `${METRIC_PREFIX}fleet_clusters`,
      help:
        'Clusters of the served revision by what this replica answered them (its own polls only, also among ' +
        'replicas): ' +
        'up_to_date (every endpoint it polls got the current body), behind (some did not), never_seen (no poll ' +
        'answered here). ' +
        'Without PEERS the same counts as the summary of GET /api/v2/gitops/fleet; with PEERS that summary merges ' +
        "every replica's polls.",
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const summary = await ownFleet();
        for (const state of FLEET_STATES) this.set({ state }, summary?.[state] ?? 0);
      },
    });

    const reloads = new Counter({
      name: `${METRIC_PREFIX}reloads_total`,
      help:
        'Loads of a new revision of the store: published, refused (by the rules; the last good one stays served) ' +
        'or failed (the store could not be read).',
      labelNames: ['result'] as const,
      registers,
    });
    // Every result present from the start, so that rate() and alerts see the first increase.
    for (const result of ['published', 'refused', 'failed'] as const) reloads.inc({ result }, 0);
    store.onLoad(({ result }) => reloads.inc({ result }));

    const writes = new Counter({
      name: `${METRIC_PREFIX}writes_total`,
      help:
        'REST writes that reached the store, by collection, action (create, update, delete) and result (ok, ' +
        'unchanged, refused, failed).',
      labelNames: ['collection', 'action', 'result'] as const,
      registers,
    });
    store.onWrite(({ collection, action, result }) => writes.inc({ collection, action, result }));

    if (peers) {
      const errors = new Counter({
        name: `${METRIC_PREFIX}peer_errors_total`,
        help:
          'Exchanges with another replica (PEERS) that failed, by reason: unreachable, timeout, refused (401/403: ' +
          'another PEER_TOKEN), ' +
          'bad_answer, tls, dns. An announcement a peer missed means its answers may go back in time until it ' +
          'catches up.',
        labelNames: ['reason'] as const,
        registers,
      });
      for (const reason of PEER_FAILURE_REASONS) errors.inc({ reason }, 0);
      peers.onFailure((reason) => errors.inc({ reason }));
      const ignored = new Counter({
        name: `${METRIC_PREFIX}peer_announcements_ignored_total`,
        help:
          'Announcements of another replica (PEERS) that made this one hold no polls, by reason: ' +
          'rate_limited (more than the peer may make), nothing_new (the store holds nothing newer than ' +
          'what is served: a revision made up, or one served already), held_before.',
        labelNames: ['reason'] as const,
        registers,
      });
      for (const reason of IGNORED_ANNOUNCEMENT_REASONS) ignored.inc({ reason }, 0);
      peers.onIgnored((reason) => ignored.inc({ reason }));
      new Gauge({
        name: `${METRIC_PREFIX}peers`,
        help: 'Other replicas this one found at its last look at PEERS (itself not counted).',
        registers,
        collect() {
          this.set(peers.count);
        },
      });
    }

    registerStoreSeries(METRIC_PREFIX, registers, store);
    registerAnswerLimitSeries(METRIC_PREFIX, registers, store);
    this.#rollouts = new RolloutSeries(METRIC_PREFIX, registers);
    registerReceiverSeries(METRIC_PREFIX, registers, () => this.#receivers?.());
    this.#events = new EventSeries(METRIC_PREFIX, registers);

    collectDefaultMetrics({ register: this.registry });
  }

  /** The rollout series read each evaluation of the rollouts from now on (made after these: they need the polls). */
  followRollouts(evaluations: Pick<RolloutEvaluations, 'onEvaluated'>): () => void {
    return this.#rollouts.follow(evaluations);
  }

  /** The receiver notices counted from now on (made after these: receivers may be off). */
  followReceivers(notifier: { counts(): NoticeCounts }): void {
    this.#receivers = () => notifier.counts();
  }

  /** The event series read the events the clusters sent. */
  followEvents(events: ClusterEvents): void {
    this.#events.follow(events);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text of every series, as /metrics answers it. */
  text(): Promise<string> {
    this.#scrapes++;
    return this.registry.metrics();
  }
}
