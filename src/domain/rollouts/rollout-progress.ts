// A rollout's progress: every member's state, every step's, and the rollout's, from the facts
// known of its members and the step times kept between evaluations. Pure, and cut in slices:
// progressSlices yields after every `sliceSize` members, so a caller walking a rollout of
// 50,000 clusters gives the event loop a turn between slices (the fleet view's way);
// rolloutProgress runs it through at once.
import {
  type ClusterFacts,
  type ClusterProgress,
  type ClusterState,
  memberProgress,
  NO_FACTS,
  type ProgressClock,
} from './cluster-progress.ts';
import type { RolloutPlan, RolloutStep } from './rollout-plan.ts';
import type { Rollout } from './rollout-record.ts';
import { rolloutStatus, type RolloutStatus } from './rollout-status.ts';
import type { RolloutServing } from './rollout-view.ts';
import {
  type StepContext,
  type StepCounts,
  stepProgress,
  type StepProgress,
  type StepTimes,
  zeroCounts,
} from './step-progress.ts';

export interface ProgressInput extends ProgressClock {
  /** The rollout as the revision published now serves it (rollout-view.ts). */
  serving: RolloutServing;
  /** The revision published now. */
  revision: string;
  /** The times kept for its steps, by step number (for the rollout's fingerprint; empty after a restart). */
  times: ReadonlyMap<number, StepTimes>;
  /** What is known of a member of a step released at `releasedAt` (ms since the epoch); undefined: nothing. */
  facts: (clusterId: string, releasedAt: number) => ClusterFacts | undefined;
}

export interface RolloutProgress {
  rollout: Rollout;
  plan: RolloutPlan;
  steps: StepProgress[];
  status: RolloutStatus;
  /** Members by state, over every step. */
  counts: StepCounts;
  /** The times to keep for its steps from now on, by step number (released steps only). */
  times: Map<number, StepTimes>;
}

/** Members looked at between two yields. */
export const DEFAULT_SLICE = 2000;

export function* progressSlices(input: ProgressInput, sliceSize = DEFAULT_SLICE): Generator<void, RolloutProgress> {
  const { serving } = input;
  const { plan, rollout, pinned } = serving;
  const context = { rollout, deadlineMs: plan.deadlineMs, revision: input.revision, now: input.now };
  const steps: StepProgress[] = [];
  const counts = zeroCounts();
  const times = new Map<number, StepTimes>();
  let budget = sliceSize;
  function* releasedProgress(step: RolloutStep): Generator<void, StepProgress> {
    const kept = input.times.get(step.step);
    const releasedAt = kept?.released_at ?? input.now;
    const member = { released: true, releasedAt };
    const clusters: ClusterProgress[] = [];
    for (const id of step.members) {
      const facts = input.facts(id, releasedAt) ?? NO_FACTS;
      clusters.push(memberProgress(id, member, pinned.has(id), facts, input));
      if (--budget === 0) {
        budget = sliceSize;
        yield;
      }
    }
    return stepProgress(step, true, kept, clusters, context);
  }
  for (const step of plan.steps) {
    const progress = step.step <= rollout.released ? yield* releasedProgress(step) : unreleasedProgress(step, context);
    for (const state of Object.keys(counts) as ClusterState[]) counts[state] += progress.counts[state];
    if (progress.released) times.set(step.step, progress.times);
    steps.push(progress);
  }
  return { rollout, plan, steps, status: rolloutStatus(plan, steps, input.now), counts, times };
}

/**
 * An unreleased step's progress: every member pending, whatever is known of it. It depends on
 * the step of the plan alone, so it is made once per plan (a plan lives as long as its rollout
 * record and the clusters stay the same objects), not once per evaluation: the steps to come of
 * a 50,000-cluster rollout cost an evaluation nothing. Frozen, being shared.
 */
const unreleased = new WeakMap<RolloutStep, StepProgress>();

function unreleasedProgress(step: RolloutStep, context: StepContext): StepProgress {
  let progress = unreleased.get(step);
  if (progress === undefined) {
    const clusters = step.members.map((id) =>
      Object.freeze(memberProgress(id, NOT_RELEASED, false, NO_FACTS, NO_CLOCK)),
    );
    progress = Object.freeze(
      stepProgress(step, false, undefined, Object.freeze(clusters) as ClusterProgress[], context),
    );
    unreleased.set(step, progress);
  }
  return progress;
}

const NOT_RELEASED = { released: false, releasedAt: null };
/** An unreleased member's progress reads no clock. */
const NO_CLOCK = { now: 0, offlineAfterMs: 0, trackingSince: 0 };

/** The progress at once (small rollouts, tests, tools). */
export function rolloutProgress(input: ProgressInput): RolloutProgress {
  const slices = progressSlices(input, Number.POSITIVE_INFINITY);
  for (;;) {
    const next = slices.next();
    if (next.done) return next.value;
  }
}
