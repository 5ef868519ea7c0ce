// What a person may do to a rollout, and what each action writes: the same changes as
// `gitops-config rollout <action>` (docs/rollouts.md, "Moving a rollout by hand"), made as a
// change set of the rollout record (and, to complete it, of its catalog entry), each write
// conditional on the ETag the record was read with. Which actions are offered follows the
// record (paused, approved, released) and the service's status (its steps, and whether the
// gates passed). Pure: the views read the records, preview and commit.
import type { PlatformComponentRecord, RolloutDetail, RolloutRecord } from '../api/types.ts';
import { ChangeSet } from './change-set.ts';
import type { EditOp } from './record-edits.ts';

export type RolloutAction =
  | { kind: 'approve'; wave: string }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'advance'; forced: boolean }
  | { kind: 'rollback'; step: number }
  | { kind: 'complete' };

export interface NextStep {
  step: number;
  wave: string;
  clusters: number;
}

/** The actions that fit the rollout as it stands; the undefined ones do not. */
export interface Offered {
  /** The next wave that waits for a person's approval, not released yet. */
  approve?: { wave: string; step: number };
  pause: boolean;
  resume: boolean;
  /** The step an advance releases, and whether the gates have passed (the status says `ready`). */
  advance?: NextStep & { gatesPassed: boolean };
  /** The steps a roll back may go back to: 0 to one below the released one. */
  rollback?: NextStep[];
  complete: boolean;
}

export function offeredActions(record: RolloutRecord, detail: RolloutDetail): Offered {
  const steps = detail.steps;
  const released = record.released;
  const stepOf = (n: number): NextStep => ({
    step: n,
    wave: steps[n - 1].wave,
    clusters: steps[n - 1].clusters.length,
  });
  const waiting = record.waves
    .filter((wave) => wave.approval && !record.approved.includes(wave.name))
    .map((wave) => ({ wave: wave.name, step: steps.find((s) => s.wave === wave.name)?.step }))
    .find((w): w is { wave: string; step: number } => w.step !== undefined && w.step > released);
  const unreleased = released < steps.length;
  return {
    approve: waiting,
    pause: !record.paused && unreleased,
    resume: record.paused,
    advance: unreleased ? { ...stepOf(released + 1), gatesPassed: detail.state === 'ready' } : undefined,
    rollback:
      released > 0
        ? Array.from({ length: released }, (_, n) => (n === 0 ? { step: 0, wave: '', clusters: 0 } : stepOf(n)))
        : undefined,
    complete: steps.length > 0 && !unreleased,
  };
}

/** Whether the action still fits the rollout as offered now (it may have moved since the button was pressed). */
export function stillOffered(action: RolloutAction, offered: Offered): boolean {
  switch (action.kind) {
    case 'approve':
      return offered.approve?.wave === action.wave;
    case 'pause':
    case 'resume':
    case 'complete':
      return offered[action.kind];
    case 'advance':
      return offered.advance !== undefined;
    case 'rollback':
      return offered.rollback !== undefined && action.step < offered.rollback.length;
  }
}

/** A record as read with its ETag. */
export interface Read<R> {
  record: R;
  etag: string | null;
}

export interface ActionChange {
  set: ChangeSet;
  /** The commit message it is proposed with (the tool's). */
  message: string;
}

/**
 * The change set of an action, and its message. `entry` is the catalog entry the rollout changes (complete only).
 * `detail` gives the steps' wave and size, and for a forced advance why the gates did not pass.
 */
export function actionChange(
  action: RolloutAction,
  rollout: Read<RolloutRecord>,
  detail: RolloutDetail,
  entry?: Read<PlatformComponentRecord>,
): ActionChange {
  const { record } = rollout;
  const name = `rollout ${record.id}`;
  const total = detail.steps.length;
  const at = `step ${Math.min(record.released, total)} of ${total}`;
  const edit = (ops: EditOp[]) =>
    ops.reduce((set, op) => set.edit('rollouts', record.id, record, rollout.etag, op), new ChangeSet());
  const field = (f: keyof RolloutRecord, value: unknown): EditOp => ({ kind: 'field', field: f, value });
  switch (action.kind) {
    case 'approve':
      return {
        set: edit([field('approved', [...record.approved, action.wave])]),
        message: `${name}: approve wave ${action.wave}`,
      };
    case 'pause':
      return { set: edit([field('paused', true)]), message: `${name}: pause at ${at}` };
    case 'resume':
      return { set: edit([field('paused', false)]), message: `${name}: resume at ${at}` };
    case 'advance': {
      const next = detail.steps[record.released];
      const clusters = count(next.clusters.length, 'cluster');
      const forced = action.forced ? ` — forced while ${detail.state}: ${detail.reason}` : '';
      return {
        set: edit([field('released', next.step)]),
        message: `${name}: release step ${next.step} (wave ${next.wave}, ${clusters})${forced}`,
      };
    }
    case 'rollback': {
      const to = action.step === 0 ? '0 (the catalog entry as it is, everywhere)' : `step ${action.step}`;
      return {
        set: edit([field('released', action.step), field('paused', true)]),
        message: `${name}: roll back to ${to} from step ${record.released}, and pause`,
      };
    }
    case 'complete': {
      if (!entry) throw new Error(`${name} changes the catalog entry "${record.component}", which was not read`);
      const fields = Object.entries(record.set).filter(([, value]) => value !== undefined && value !== null);
      const folded = fields.reduce(
        (set, [f, value]) =>
          set.edit('platform_components', entry.record.id, entry.record, entry.etag, {
            kind: 'field',
            field: f,
            value,
          }),
        new ChangeSet(),
      );
      const set = folded.edit('rollouts', record.id, record, rollout.etag, { kind: 'delete' });
      const values = fields.map(([f, value]) => `${f} ${String(value)}`).join(', ');
      const into = `platform_components/${entry.record.id}`;
      return { set, message: `${name}: complete: fold ${values} into ${into}, remove the rollout` };
    }
  }
}

/**
 * The clusters that hold a rollout back: every failed or offline one of the released steps, and those of the first
 * released step not done yet that have not fetched it (a step past its deadline halts on them).
 */
export function holdingBack(detail: RolloutDetail): { id: string; state: string; message?: string }[] {
  const released = detail.steps.slice(0, detail.released);
  const stuck = released.find((step) => step.done_at === null);
  const held = new Map<string, { id: string; state: string; message?: string }>();
  for (const step of released) {
    for (const c of step.clusters) {
      if (c.state === 'failed' || c.state === 'offline' || (step === stuck && c.state === 'released'))
        held.set(c.id, c);
    }
  }
  return [...held.values()];
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
