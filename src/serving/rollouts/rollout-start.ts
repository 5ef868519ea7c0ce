// Rollout progress as the service starts it: judged by the poll records (METRICS=on) and the
// events the clusters sent; among replicas by every replica's, gathered at each evaluation
// like the fleet view's.
import type { Logger } from 'pino';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { ClusterEvents, EventLookup } from '../cluster-events.ts';
import type { CurrentResponses } from '../current-responses.ts';
import type { FleetPolls, PollLookup } from '../fleet-polls.ts';
import { MergedEvents } from '../merged-events.ts';
import { MergedPolls } from '../merged-polls.ts';
import { rolloutProgressService, type RolloutProgressService } from './rollout-progress-service.ts';
import type { RolloutSettings } from './rollout-settings.ts';

/** What the other replicas (PEERS) hand over: their polls and events. */
export interface OtherReplicas {
  gatherPolls(): Promise<{ polls: PollLookup[] }>;
  gatherEvents(): Promise<{ values: EventLookup[] }>;
}

export function startRolloutProgress(
  settings: RolloutSettings,
  store: StoreRunner,
  responses: CurrentResponses,
  kept: { polls: FleetPolls | undefined; events: ClusterEvents },
  peers: OtherReplicas | undefined,
  log: Logger,
): RolloutProgressService | undefined {
  const own = kept.polls;
  if (own === undefined) {
    if (settings.rolloutAutoAdvance) {
      log.warn('METRICS=off: rollouts are not evaluated and ROLLOUT_AUTO_ADVANCE releases nothing (no poll records)');
    }
    return undefined;
  }
  const polls = peers ? async () => new MergedPolls(own, (await peers.gatherPolls()).polls) : async () => own;
  const events = peers
    ? async () => new MergedEvents(kept.events, (await peers.gatherEvents()).values)
    : async () => kept.events;
  const progress = {
    offlineAfterMs: settings.rolloutOfflineAfterMs,
    autoAdvance: settings.rolloutAutoAdvance,
    releaseName: settings.rolloutReleaseName,
  };
  return rolloutProgressService(store, responses, polls, events, progress, log);
}
