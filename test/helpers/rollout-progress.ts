// Rollout progress over the small test fleet, evaluated the way the service's tracker does:
// the step times one evaluation returns are kept and handed to the next.
import { type ClusterFacts, NO_FACTS } from '../../src/domain/rollouts/cluster-progress.ts';
import type { Rollout } from '../../src/domain/rollouts/rollout-record.ts';
import { type RolloutProgress, rolloutProgress } from '../../src/domain/rollouts/rollout-progress.ts';
import { rolloutView } from '../../src/domain/rollouts/rollout-view.ts';
import type { StepTimes } from '../../src/domain/rollouts/step-progress.ts';
import type { Cluster } from '../../src/domain/records.ts';
import { catalogMap, clustersMap, fourEnvironments, KPS } from '../fixtures/rollout-fleet.ts';

export const T0 = Date.parse('2025-03-04T12:00:00Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface Evaluation {
  rollout: Rollout;
  now: number;
  facts?: Record<string, Partial<ClusterFacts>>;
  times?: ReadonlyMap<number, StepTimes>;
  clusters?: Cluster[];
  offlineAfterMs?: number;
  trackingSince?: number;
  revision?: string;
}

export function evaluate(e: Evaluation): RolloutProgress {
  const list = e.clusters ?? fourEnvironments();
  const rollouts = new Map([[e.rollout.id, e.rollout]]);
  const view = rolloutView({ clusters: clustersMap(list), platform_components: catalogMap(KPS), rollouts });
  const facts = e.facts ?? {};
  return rolloutProgress({
    serving: view.byComponent.get(KPS.id)!,
    revision: e.revision ?? 'rev-1',
    times: e.times ?? new Map(),
    facts: (id) => (facts[id] === undefined ? undefined : { ...NO_FACTS, ...facts[id] }),
    now: e.now,
    offlineAfterMs: e.offlineAfterMs ?? 30 * MINUTE,
    // Tracking started a little before, unless said: silence alone makes no cluster offline.
    trackingSince: e.trackingSince ?? e.now - 10 * MINUTE,
  });
}

/** Every member of the given ids fetched at `at`. */
export function fetched(ids: readonly string[], at: number): Record<string, Partial<ClusterFacts>> {
  return Object.fromEntries(ids.map((id) => [id, { fetchedAt: at, lastPollAt: at }]));
}

export const STEP_1 = ['dev-eu-1'];
export const STEP_2 = ['dev-eu-2', 'dev-us-1', 'qa-eu-1', 'qa-us-1', 'uat-eu-1'];
export const STEP_3 = ['prod-ap-1', 'prod-eu-1', 'prod-eu-2'];
export const STEP_4 = ['prod-eu-3', 'prod-us-1', 'prod-us-2'];
