// What each action a person (or the service, for an advance) takes on a rollout changes, as
// data: the writes of one change set, in the shape POST /api/v2/gitops/changes takes, its
// message, and the rollout record after it. The tool edits a file in a checkout with the same
// patch; the service sends the same writes. Nothing here checks the gates: a person may force
// an advance, and says so (the status says whether the gates passed).
//
//   advance           released + 1
//   approve <wave>    the wave's name added to `approved` (a wave that waits for approval)
//   pause / resume    paused: true / false
//   rollback <step>   released lowered to <step> (0: the catalog's answer everywhere), and
//                     paused, so that the step rolled back is not released again by itself
//   complete          the catalog entry with `set` folded in, and the rollout deleted: one
//                     commit that changes no released cluster's answer
import type { PlatformComponent } from '../records.ts';
import type { RolloutPlan } from './rollout-plan.ts';
import { applySet, type Rollout, SET_FIELDS } from './rollout-record.ts';
import { count } from './rollout-words.ts';

export type RolloutAction =
  | { kind: 'advance'; message?: string }
  | { kind: 'approve'; wave: string }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'rollback'; step: number }
  | { kind: 'complete'; force?: boolean };

export type RolloutWrite =
  | { op: 'patch'; collection: 'rollouts'; id: string; patch: Partial<Rollout>; if_match?: string }
  | { op: 'replace'; collection: 'platform_components'; id: string; record: PlatformComponent; if_match?: string }
  | { op: 'delete'; collection: 'rollouts'; id: string; if_match?: string };

export interface RolloutChange {
  message: string;
  writes: RolloutWrite[];
  /** The rollout after the change; null when the change deletes it. */
  rollout: Rollout | null;
}

/** Why an action makes no change: the record is that way already, or the action does not fit it. */
export interface ActionRefusal {
  reason: 'unchanged' | 'invalid';
  message: string;
}

export type ActionResult = { ok: true; change: RolloutChange } | { ok: false; refusal: ActionRefusal };

export interface ActionContext {
  /** The rollout's plan in the revision the action starts from. */
  plan: RolloutPlan;
  /** The catalog entry it changes (complete needs it). */
  entry?: PlatformComponent;
  /** ETags the writes are conditional on. */
  etags?: { rollout?: string; entry?: string };
}

function refuse(reason: ActionRefusal['reason'], message: string): ActionResult {
  return { ok: false, refusal: { reason, message } };
}

export function rolloutAction(action: RolloutAction, context: ActionContext): ActionResult {
  const { rollout, steps } = context.plan;
  const name = `rollout ${rollout.id}`;
  const at = `step ${Math.min(rollout.released, steps.length)} of ${steps.length}`;
  switch (action.kind) {
    case 'advance': {
      const next = steps[rollout.released];
      if (next === undefined) return refuse('invalid', `every step of ${name} is released already (${at})`);
      const clusters = count(next.members.length, 'cluster');
      const message = action.message ?? `${name}: release step ${next.step} (wave ${next.wave}, ${clusters})`;
      return patch(context, { released: next.step }, message);
    }
    case 'approve': {
      const wave = rollout.waves.find((w) => w.name === action.wave);
      if (wave === undefined) {
        const names = rollout.waves.map((w) => w.name).join(', ');
        return refuse('invalid', `${name} has no wave "${action.wave}" (its waves: ${names})`);
      }
      if (!wave.approval) return refuse('invalid', `wave ${wave.name} of ${name} does not wait for approval`);
      if (rollout.approved.includes(wave.name)) {
        return refuse('unchanged', `wave ${wave.name} of ${name} is approved already`);
      }
      return patch(context, { approved: [...rollout.approved, wave.name] }, `${name}: approve wave ${wave.name}`);
    }
    case 'pause':
      if (rollout.paused) return refuse('unchanged', `${name} is paused already`);
      return patch(context, { paused: true }, `${name}: pause at ${at}`);
    case 'resume':
      if (!rollout.paused) return refuse('unchanged', `${name} is not paused`);
      return patch(context, { paused: false }, `${name}: resume at ${at}`);
    case 'rollback': {
      const { step } = action;
      if (!Number.isInteger(step) || step < 0 || step >= rollout.released) {
        const range = rollout.released === 0 ? 'nothing is released' : `a step from 0 to ${rollout.released - 1}`;
        return refuse('invalid', `${name} cannot roll back to ${step}: ${range}`);
      }
      const to = step === 0 ? '0 (the catalog entry as it is, everywhere)' : `step ${step}`;
      const message = `${name}: roll back to ${to} from step ${rollout.released}, and pause`;
      return patch(context, { released: step, paused: true }, message);
    }
    case 'complete':
      return complete(context, action.force === true);
  }
}

function patch(context: ActionContext, fields: Partial<Rollout>, message: string): ActionResult {
  const { rollout } = context.plan;
  const write: RolloutWrite = { op: 'patch', collection: 'rollouts', id: rollout.id, patch: fields };
  if (context.etags?.rollout !== undefined) write.if_match = context.etags.rollout;
  return { ok: true, change: { message, writes: [write], rollout: { ...rollout, ...fields } } };
}

function complete(context: ActionContext, force: boolean): ActionResult {
  const { plan, entry, etags } = context;
  const { rollout } = plan;
  const name = `rollout ${rollout.id}`;
  if (entry === undefined || entry.id !== rollout.component) {
    return refuse('invalid', `${name} changes the catalog entry "${rollout.component}", which does not exist`);
  }
  const unreleased = plan.steps.slice(rollout.released);
  if (unreleased.length > 0 && !force) {
    const clusters = count(
      unreleased.reduce((n, s) => n + s.members.length, 0),
      'cluster',
    );
    const first = unreleased[0].step;
    const steps = unreleased.length === 1 ? `step ${first} is` : `steps ${first} to ${plan.steps.length} are`;
    return refuse(
      'invalid',
      `${steps} not released: completing ${name} now changes the answers of ${clusters} at once (force it to do so)`,
    );
  }
  const record = applySet(entry, rollout.set);
  const values = SET_FIELDS.filter((f) => rollout.set[f] !== undefined).map((f) => `${f} ${rollout.set[f]}`);
  const replace: RolloutWrite = { op: 'replace', collection: 'platform_components', id: entry.id, record };
  if (etags?.entry !== undefined) replace.if_match = etags.entry;
  const remove: RolloutWrite = { op: 'delete', collection: 'rollouts', id: rollout.id };
  if (etags?.rollout !== undefined) remove.if_match = etags.rollout;
  const into = `platform_components/${entry.id}`;
  const message = `${name}: complete: fold ${values.join(', ')} into ${into}, remove the rollout`;
  return { ok: true, change: { message, writes: [replace, remove], rollout: null } };
}
