// Where one step of a rollout stands: done or not, its soak, and whether it halts the rollout.
//
// A step is done when every member that is not pinned has it — fetched it, or reported success
// where the rollout says `require_reports` — except failed and offline members, which do not
// hold it back as long as there are at most `failure_budget` of them. Done is sticky: once seen
// done, a step stays done while it stays released with the same set (the times kept for it say
// so). Its soak runs from that moment. A released step halts the rollout when more members
// than the budget failed or are offline, or when it is not done within `progress_deadline` of
// when it was first seen released (after a restart that clock starts again: never shorter).
import type { ClusterProgress, ClusterState } from './cluster-progress.ts';
import type { RolloutStep } from './rollout-plan.ts';
import { type Rollout, setKey } from './rollout-record.ts';

/** What is kept of a step between evaluations, per rollout (see rolloutFingerprint). Times in ms since the epoch. */
export interface StepTimes {
  /** The revision first seen publishing the step released. */
  released_in: string | null;
  /** When the step was first seen released. */
  released_at: number | null;
  /** When the step was first seen done. */
  done_at: number | null;
}

export const UNRELEASED: StepTimes = Object.freeze({ released_in: null, released_at: null, done_at: null });

/**
 * What the kept step times belong to: the rollout's id, component and set. A rollout whose set
 * changed is another release, and starts over.
 */
export function rolloutFingerprint(rollout: Rollout): string {
  return `${rollout.id}\u0000${rollout.component}\u0000${setKey(rollout.set)}`;
}

export type StepCounts = Record<ClusterState, number>;

export function zeroCounts(): StepCounts {
  return { pending: 0, released: 0, fetched: 0, succeeded: 0, failed: 0, offline: 0, pinned: 0 };
}

/** Why a step halts the rollout. */
export type StepHalt = { kind: 'budget' } | { kind: 'deadline' };

export interface StepProgress {
  plan: RolloutStep;
  released: boolean;
  /** The times to keep for the step from now on (all null for a step not released). */
  times: StepTimes;
  clusters: ClusterProgress[];
  counts: StepCounts;
  /** Members that are not pinned: those that gate the step. */
  gating: number;
  /** Ids of the gating members that do not have it yet (and are not failed or offline). */
  waiting: string[];
  /** Members failed or offline, in id order. */
  troubled: ClusterProgress[];
  done: boolean;
  /** When its soak ends (done_at + the wave's soak), or null while it is not done. */
  soakEndsAt: number | null;
  halt: StepHalt | null;
}

export interface StepContext {
  rollout: Rollout;
  deadlineMs: number;
  /** The revision published now. */
  revision: string;
  now: number;
}

/** A step's progress from its members' progress and the times kept for it. */
export function stepProgress(
  step: RolloutStep,
  released: boolean,
  kept: StepTimes | undefined,
  clusters: ClusterProgress[],
  context: StepContext,
): StepProgress {
  const counts = zeroCounts();
  const waiting: string[] = [];
  const troubled: ClusterProgress[] = [];
  const has: ClusterState = context.rollout.require_reports ? 'succeeded' : 'fetched';
  for (const c of clusters) {
    counts[c.state]++;
    if (c.state === 'failed' || c.state === 'offline') troubled.push(c);
    else if (c.state === 'released' || (c.state === 'fetched' && has === 'succeeded')) waiting.push(c.id);
  }
  const gating = clusters.length - counts.pinned;
  const base = { plan: step, released, clusters, counts, gating, waiting, troubled };
  if (!released) return { ...base, times: UNRELEASED, done: false, soakEndsAt: null, halt: null };

  const overBudget = troubled.length > context.rollout.failure_budget;
  const previous = kept ?? UNRELEASED;
  const done = previous.done_at !== null || (waiting.length === 0 && !overBudget);
  const times: StepTimes = {
    released_in: previous.released_in ?? context.revision,
    released_at: previous.released_at ?? context.now,
    done_at: done ? (previous.done_at ?? context.now) : null,
  };
  const soakEndsAt = times.done_at === null ? null : times.done_at + step.soakMs;
  const late = !done && context.now - times.released_at! >= context.deadlineMs;
  const halt: StepHalt | null = overBudget ? { kind: 'budget' } : late ? { kind: 'deadline' } : null;
  return { ...base, times, done, soakEndsAt, halt };
}
