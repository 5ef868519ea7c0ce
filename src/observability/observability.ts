// Metrics and the fleet poll registry of one service instance, made together and turned off
// together (METRICS=off), so that their cost on the read path can be measured against none.
import { FleetPolls } from '../serving/fleet-polls.ts';
import { FleetStates } from '../serving/fleet-view.ts';
import type { CurrentResponses } from '../serving/current-responses.ts';
import type { StoreRunner } from '../store/runner/store-runner.ts';
import { type MetricSources, ServiceMetrics } from './service-metrics.ts';

export interface Observability {
  metrics: ServiceMetrics;
  /** The read path records every answered poll here. */
  polls: FleetPolls;
  /** The fleet view and the fleet gauge, worked out from the polls. */
  fleet: FleetStates;
}

export function createObservability(
  store: StoreRunner,
  responses: CurrentResponses,
  pollIntervalMs: number,
  peers?: MetricSources['peers'],
): Observability {
  const polls = new FleetPolls(store);
  const fleet = new FleetStates(responses, polls);
  return { metrics: new ServiceMetrics({ store, fleet, pollIntervalMs, peers }), polls, fleet };
}
