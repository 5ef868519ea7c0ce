// The rollout progress of one service put together: the tracker (what is known), the
// evaluations that keep it current without anyone asking, and, with ROLLOUT_AUTO_ADVANCE, the
// advancer that releases ready steps. Made before the store starts, so the first publication
// is followed too; stopped before the store stops, so no release is started on the way out.
import type { Logger } from 'pino';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { CurrentResponses } from '../current-responses.ts';
import type { PollLookup } from '../fleet-polls.ts';
import { RolloutAdvancer } from './rollout-advancer.ts';
import { RolloutEvaluations } from './rollout-evaluations.ts';
import { RolloutTracker } from './rollout-tracker.ts';

export interface RolloutProgressSettings {
  offlineAfterMs: number;
  autoAdvance: boolean;
}

export interface RolloutProgressService {
  tracker: RolloutTracker;
  evaluations: RolloutEvaluations;
  /** The poll records judged by: this replica's, merged with the other replicas' when there are some. */
  polls: () => Promise<PollLookup>;
  stop(): void;
}

export function rolloutProgressService(
  store: StoreRunner,
  responses: CurrentResponses,
  polls: () => Promise<PollLookup>,
  settings: RolloutProgressSettings,
  log: Logger,
): RolloutProgressService {
  const tracker = new RolloutTracker({ source: store, responses, offlineAfterMs: settings.offlineAfterMs });
  const advancer = settings.autoAdvance ? new RolloutAdvancer(store, log) : undefined;
  const evaluations = new RolloutEvaluations({
    tracker,
    source: store,
    polls,
    log,
    advance: advancer && ((evaluated) => advancer.advance(evaluated)),
  });
  return { tracker, evaluations, polls, stop: () => evaluations.stop() };
}
