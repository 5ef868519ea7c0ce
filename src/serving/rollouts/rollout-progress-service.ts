// The rollout progress of one service put together: the tracker (what is known), the
// evaluations that keep it current without anyone asking, and, with ROLLOUT_AUTO_ADVANCE, the
// advancer that releases ready steps. Made before the store starts, so the first publication
// is followed too; stopped before the store stops, so no release is started on the way out.
import type { Logger } from 'pino';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { CurrentResponses } from '../current-responses.ts';
import type { EventLookup } from '../cluster-events.ts';
import type { PollLookup } from '../fleet-polls.ts';
import { RolloutAdvancer } from './rollout-advancer.ts';
import { RolloutEvaluations } from './rollout-evaluations.ts';
import { RolloutTracker } from './rollout-tracker.ts';

export interface RolloutProgressSettings {
  offlineAfterMs: number;
  autoAdvance: boolean;
  /** ROLLOUT_RELEASE_NAME. */
  releaseName: string;
}

export interface RolloutProgressService {
  tracker: RolloutTracker;
  evaluations: RolloutEvaluations;
  /** The poll records judged by: this replica's, merged with the other replicas' when there are some. */
  polls: () => Promise<PollLookup>;
  /** The events judged by: this replica's, merged with the other replicas' when there are some. */
  events: () => Promise<EventLookup>;
  stop(): void;
}

export function rolloutProgressService(
  store: StoreRunner,
  responses: CurrentResponses,
  polls: () => Promise<PollLookup>,
  events: () => Promise<EventLookup>,
  settings: RolloutProgressSettings,
  log: Logger,
): RolloutProgressService {
  const { offlineAfterMs, releaseName } = settings;
  const tracker = new RolloutTracker({ source: store, responses, offlineAfterMs, releaseName });
  const advancer = settings.autoAdvance ? new RolloutAdvancer(store, log) : undefined;
  const evaluations = new RolloutEvaluations({
    tracker,
    source: store,
    polls,
    events,
    log,
    advance: advancer && ((evaluated) => advancer.advance(evaluated)),
  });
  return { tracker, evaluations, polls, events, stop: () => evaluations.stop() };
}
