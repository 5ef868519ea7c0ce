// Whether an advance may go ahead without --force, as far as the tool can know. With a
// service it has the rollout's state: only `ready` passes. In a checkout it has the record
// alone: a paused rollout and a wave that waits for approval are refused; whether the last
// step is done and its soak passed only the service knows, and the tool says so.
import type { ActionRefusal } from '../domain/rollouts/rollout-actions.ts';
import type { RolloutPlan } from '../domain/rollouts/rollout-plan.ts';
import type { RolloutDetail } from '../domain/rollouts/rollout-shapes.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS } from './exit-codes.ts';

export type Gate = { pass: true; note?: string } | { pass: false; why: string };

const FORCE = 'add --force to release it anyway';

/** The gate judged from the record in a checkout. */
export function checkoutGate(plan: RolloutPlan): Gate {
  const { rollout, steps } = plan;
  const next = steps[rollout.released];
  if (next === undefined) return { pass: true };
  if (rollout.paused) {
    const resume = `gitops-config rollout resume ${rollout.id}`;
    return { pass: false, why: `rollout ${rollout.id} is paused: resume it first (${resume}), or ${FORCE}` };
  }
  const wave = rollout.waves[next.waveIndex];
  if (next.opensWave && wave.approval && !rollout.approved.includes(wave.name)) {
    return {
      pass: false,
      why:
        `step ${next.step} opens wave ${wave.name}, which waits for approval: ` +
        `approve it first (gitops-config rollout approve ${rollout.id} ${wave.name}), or ${FORCE}`,
    };
  }
  const last = rollout.released === 0 ? '' : ` whether step ${rollout.released} is done and its soak passed, and`;
  return {
    pass: true,
    note:
      `a checkout does not show the fleet:${last} whether the rollout is halted, only the service knows; ` +
      `merge this once \`gitops-config rollout status ${rollout.id} --server <url>\` says ready`,
  };
}

/** The gate judged from the service's status of the rollout. */
export function serviceGate(detail: RolloutDetail): Gate {
  if (detail.state === 'ready') return { pass: true };
  if (detail.state === 'complete' || detail.released >= detail.steps.length) return { pass: true };
  return { pass: false, why: `rollout ${detail.id} is ${detail.state}: ${detail.reason}; ${FORCE}` };
}

/** A refused action: one that changes nothing is said, exit 0; one that does not fit is an error, exit 1. */
export function refused(refusal: ActionRefusal, io: CliIo): number {
  if (refusal.reason === 'unchanged') {
    io.stderr(`nothing to change: ${refusal.message}\n`);
    return EXIT_OK;
  }
  io.stderr(`gitops-config: ${refusal.message}\n`);
  return EXIT_PROBLEMS;
}
