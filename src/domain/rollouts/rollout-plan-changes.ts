// Which clusters each step of a rollout holds, for the rollouts a change creates, edits or
// deletes: the report of a change (../revision-diff.ts) carries it, so a preview of a new
// rollout, or a `gitops-config diff` of one in a pull request, lists the clusters of every step
// before anything is released. The membership is the service's own (./rollout-plan.ts): the
// same plan it serves and advances by, not a guess made again by whoever shows it.
import { compareIds } from '../ids.ts';
import { sameJson } from '../input-diff.ts';
import type { Snapshot } from '../snapshot.ts';
import { planRollout } from './rollout-plan.ts';

export interface RolloutPlanChange {
  id: string;
  status: 'added' | 'changed' | 'removed';
  component: string;
  /** Steps released by the record (the head's; a removed rollout's as the base had it). */
  released: number;
  /** In order, numbered across waves from 1; a wave with no cluster has none. */
  steps: { step: number; wave: string; clusters: string[] }[];
  /** Clusters using the component in no wave: the rollout never changes them. */
  unassigned: string[];
}

/**
 * The plans of the rollouts whose record differs between the two revisions, in id order: over
 * the head's clusters, a removed rollout over the base's.
 */
export function rolloutPlanChanges(before: Snapshot, after: Snapshot): RolloutPlanChange[] {
  if (before.rollouts === after.rollouts) return [];
  const ids = [...new Set([...before.rollouts.keys(), ...after.rollouts.keys()])].sort(compareIds);
  const changes: RolloutPlanChange[] = [];
  for (const id of ids) {
    const old = before.rollouts.get(id);
    const now = after.rollouts.get(id);
    if (old !== undefined && now !== undefined && (old === now || sameJson(old, now))) continue;
    const plan = now ? planRollout(now, after.clusters) : planRollout(old!, before.clusters);
    changes.push({
      id,
      status: !old ? 'added' : !now ? 'removed' : 'changed',
      component: plan.rollout.component,
      released: plan.rollout.released,
      steps: plan.steps.map((s) => ({ step: s.step, wave: s.wave, clusters: [...s.members] })),
      unassigned: [...plan.unassigned],
    });
  }
  return changes;
}
