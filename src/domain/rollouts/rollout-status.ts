// The state of a rollout and why, in words a person acts on. The first that applies:
//   complete  every step released, done, and the last one's soak passed
//   halted    a released step has more failed or offline members than the budget, or is not
//             done within the progress deadline ("step 2 has 3 clusters failed or offline, …")
//   paused    `paused: true`
//   running   a released step is not done ("3 of 12 clusters have not fetched: a, b, c"; the
//             earliest such step)
//   waiting   the last released step soaks ("soak of step 2 ends at 14:32 UTC"), or the next
//             step opens a wave that waits for approval ("waits for approval of wave prod")
//   ready     the next step may be released ("step 3 (wave prod, 5 clusters) may be released")
// A ready rollout also carries the commit message of its next release, with the evidence.
import type { RolloutPlan, RolloutStep } from './rollout-plan.ts';
import type { StepProgress } from './step-progress.ts';
import { clockTime, count, listed, rfc3339 } from './rollout-words.ts';

export const ROLLOUT_STATES = ['running', 'waiting', 'ready', 'halted', 'paused', 'complete'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

/** The most clusters a reason names before it counts the rest. */
const NAMED = 5;
/** The most of a cluster's message a reason quotes (the status's clusters carry it whole). */
const MESSAGE_CHARS = 160;

export interface NextRelease {
  /** The value of `released` that releases it. */
  released: number;
  step: RolloutStep;
  /** The commit message, with the evidence that the gates passed. */
  message: string;
}

/** A wave a person has not approved yet, holding back the next step (the state is `waiting`). */
export interface ApprovalWait {
  wave: string;
  /**
   * From when nothing but the approval holds the next step back: the end of the last released
   * step's soak (its done time without one; it may lie ahead while the soak runs), or null when
   * no step is released yet (nothing here dates it: whoever watches keeps when it first saw it).
   */
  since: number | null;
}

export interface RolloutStatus {
  state: RolloutState;
  reason: string;
  /** Present when the state is `ready`. */
  next?: NextRelease;
  /** Present when the state is `waiting` for a person's approval (perhaps after a soak). */
  approval?: ApprovalWait;
}

export function rolloutStatus(plan: RolloutPlan, steps: readonly StepProgress[], now: number): RolloutStatus {
  const { rollout } = plan;
  const released = steps.filter((s) => s.released);
  const last = released.at(-1);
  const soaking = last !== undefined && last.soakEndsAt !== null && now < last.soakEndsAt;
  if (steps.length === 0) {
    return {
      state: 'complete',
      reason:
        `the rollout has no step (no cluster that uses "${rollout.component}" is in a wave): completing it ` +
        `folds set into the catalog entry "${rollout.component}"`,
    };
  }
  if (released.length === steps.length && released.every((s) => s.done) && !soaking) {
    const all = steps.length === 1 ? 'the one step' : `all ${steps.length} steps`;
    return {
      state: 'complete',
      reason: `${all} released, done and soaked: completing it folds set into the catalog entry "${rollout.component}"`,
    };
  }
  const halted = released.find((s) => s.halt !== null);
  if (halted) return { state: 'halted', reason: haltReason(plan, halted, now) };
  if (rollout.paused) {
    return { state: 'paused', reason: `paused with ${released.length} of ${count(steps.length, 'step')} released` };
  }
  const running = released.find((s) => !s.done);
  if (running) return { state: 'running', reason: notThereYet(plan, running) };

  // Every released step is done; the last one may still soak, and the next may wait for approval.
  const next = steps[released.length]?.plan;
  const wave = next === undefined ? undefined : rollout.waves[next.waveIndex];
  const approval = next?.opensWave === true && wave!.approval && !rollout.approved.includes(wave!.name);
  const waits: string[] = [];
  if (soaking) waits.push(`soak of step ${last.plan.step} ends at ${clockTime(last.soakEndsAt!, now)}`);
  if (approval) waits.push(`waits for approval of wave ${wave!.name}`);
  if (approval) {
    const since = last?.soakEndsAt ?? null;
    return { state: 'waiting', reason: waits.join(', then '), approval: { wave: wave!.name, since } };
  }
  if (waits.length > 0 || next === undefined) return { state: 'waiting', reason: waits.join(', then ') };
  const reason = `step ${next.step} (wave ${next.wave}, ${count(next.members.length, 'cluster')}) may be released`;
  const message = releaseMessage(plan, next, last);
  return { state: 'ready', reason, next: { released: next.step, step: next, message } };
}

/** "3 of 12 clusters have not fetched: a, b, c" (or "have not reported success" where reports are required). */
function notThereYet(plan: RolloutPlan, step: StepProgress): string {
  const has = step.waiting.length === 1 ? 'has' : 'have';
  const verb = plan.rollout.require_reports ? `${has} not reported success` : `${has} not fetched`;
  return `${step.waiting.length} of ${count(step.gating, 'cluster')} ${verb}: ${listed(step.waiting, NAMED)}`;
}

function haltReason(plan: RolloutPlan, step: StepProgress, now: number): string {
  const { rollout } = plan;
  if (step.halt!.kind === 'budget') {
    // A failed cluster's own words say why; an offline one's are in its entry of the status.
    const named = step.troubled.map((c) =>
      c.state === 'failed' && c.message ? `${c.id} (failed: ${shortened(c.message)})` : `${c.id} (${c.state})`,
    );
    return (
      `step ${step.plan.step} has ${count(step.troubled.length, 'cluster')} failed or offline, more than the ` +
      `failure budget of ${rollout.failure_budget}: ${listed(named, NAMED)}`
    );
  }
  const since = clockTime(step.times.released_at!, now);
  return (
    `step ${step.plan.step} is not done within the progress deadline of ${rollout.progress_deadline} ` +
    `(released at ${since}): ${notThereYet(plan, step)}`
  );
}

/** A cluster's message in a reason: its first line, cut at MESSAGE_CHARS. */
function shortened(message: string): string {
  const line = message.split('\n', 1)[0].trim();
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS)}…` : line;
}

/**
 * "rollout kps-67-5: release step 3 (wave prod, 5 clusters) — step 2 done at
 * 2025-03-04T14:02:05Z, soak 30m passed", with ", wave prod approved" when it opens a wave that
 * needed approval. Times in full: the message stays in the history.
 */
function releaseMessage(plan: RolloutPlan, next: RolloutStep, previous: StepProgress | undefined): string {
  const { rollout } = plan;
  const clusters = count(next.members.length, 'cluster');
  const head = `rollout ${rollout.id}: release step ${next.step} (wave ${next.wave}, ${clusters})`;
  const evidence: string[] = [];
  if (previous !== undefined) {
    const soak = rollout.waves[previous.plan.waveIndex].soak;
    const soaked = previous.plan.soakMs === 0 ? 'no soak' : `soak ${soak} passed`;
    evidence.push(`step ${previous.plan.step} done at ${rfc3339(previous.times.done_at!)}, ${soaked}`);
  }
  const wave = rollout.waves[next.waveIndex];
  if (next.opensWave && wave.approval) evidence.push(`wave ${wave.name} approved`);
  return evidence.length === 0 ? head : `${head} \u2014 ${evidence.join(', ')}`;
}
