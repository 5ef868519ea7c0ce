// The shapes a rollout's progress is shown in: one shape everywhere (the API, the tool's
// `--format json`, the UI). Times are RFC 3339 in UTC; a cluster's message only when it has one.
//   list:  {"rollouts": [RolloutListItem]}
//   one:   RolloutDetail, its steps in step order
import type { ClusterState } from './cluster-progress.ts';
import type { RolloutSet } from './rollout-record.ts';
import type { RolloutProgress } from './rollout-progress.ts';
import type { RolloutState } from './rollout-status.ts';

export interface RolloutListItem {
  id: string;
  component: string;
  set: RolloutSet;
  state: RolloutState;
  reason: string;
  released: number;
  /** How many steps the rollout has. */
  steps: number;
  clusters: Record<ClusterState, number>;
}

export interface StepClusterView {
  id: string;
  state: ClusterState;
  since: string | null;
  message?: string;
}

export interface StepView {
  step: number;
  wave: string;
  released_in: string | null;
  released_at: string | null;
  done_at: string | null;
  soak_ends_at: string | null;
  clusters: StepClusterView[];
}

export interface RolloutDetail extends Omit<RolloutListItem, 'steps'> {
  steps: StepView[];
}

export interface RolloutList {
  rollouts: RolloutListItem[];
}

const time = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** `time`, remembering the last moment converted: the members of a step mostly share theirs (its release). */
export function timeWithMemory(): (ms: number | null) => string | null {
  let lastMs: number | null = null;
  let lastText: string | null = null;
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      lastText = time(ms);
    }
    return lastText;
  };
}

export function rolloutListItem(progress: RolloutProgress): RolloutListItem {
  const { rollout, status, counts } = progress;
  return {
    id: rollout.id,
    component: rollout.component,
    set: rollout.set,
    state: status.state,
    reason: status.reason,
    released: rollout.released,
    steps: progress.steps.length,
    clusters: { ...counts },
  };
}

export function rolloutDetail(progress: RolloutProgress): RolloutDetail {
  const { steps: _count, ...item } = rolloutListItem(progress);
  const since = timeWithMemory();
  return {
    ...item,
    steps: progress.steps.map((s) => ({ ...stepFields(s), clusters: s.clusters.map((c) => clusterView(c, since)) })),
  };
}

type StepProgress = RolloutProgress['steps'][number];

/** A step's fields but its clusters, in the order of the shape. */
export function stepFields(s: StepProgress) {
  return {
    step: s.plan.step,
    wave: s.plan.wave,
    released_in: s.times.released_in,
    released_at: time(s.times.released_at),
    done_at: time(s.times.done_at),
    soak_ends_at: time(s.soakEndsAt),
  };
}

/** One cluster of a step, its `since` converted by `since`. */
export function clusterView(c: StepProgress['clusters'][number], since: (ms: number | null) => string | null) {
  return {
    id: c.id,
    state: c.state,
    since: since(c.since),
    ...(c.message === undefined ? {} : { message: c.message }),
  };
}
