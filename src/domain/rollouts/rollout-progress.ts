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
import type { RolloutPlan } from './rollout-plan.ts';
import type { Rollout } from './rollout-record.ts';
import { rolloutStatus, type RolloutStatus } from './rollout-status.ts';
import type { RolloutServing } from './rollout-view.ts';
import { type StepCounts, stepProgress, type StepProgress, type StepTimes, zeroCounts } from './step-progress.ts';

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
  for (const step of plan.steps) {
    const released = step.step <= rollout.released;
    const kept = input.times.get(step.step);
    const releasedAt = released ? (kept?.released_at ?? input.now) : null;
    const clusters: ClusterProgress[] = [];
    for (const id of step.members) {
      const facts = released ? (input.facts(id, releasedAt!) ?? NO_FACTS) : NO_FACTS;
      clusters.push(memberProgress(id, { released, releasedAt }, pinned.has(id), facts, input));
      if (--budget === 0) {
        budget = sliceSize;
        yield;
      }
    }
    const progress = stepProgress(step, released, kept, clusters, context);
    for (const state of Object.keys(counts) as ClusterState[]) counts[state] += progress.counts[state];
    if (released) times.set(step.step, progress.times);
    steps.push(progress);
  }
  return { rollout, plan, steps, status: rolloutStatus(plan, steps, input.now), counts, times };
}

/** The progress at once (small rollouts, tests, tools). */
export function rolloutProgress(input: ProgressInput): RolloutProgress {
  const slices = progressSlices(input, Number.POSITIVE_INFINITY);
  for (;;) {
    const next = slices.next();
    if (next.done) return next.value;
  }
}
