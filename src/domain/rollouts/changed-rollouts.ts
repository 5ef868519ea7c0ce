// Which rollout records differ between two revisions: created, changed (any field: `released`,
// `paused`, `approved`, the waves) or removed. The history of revisions keeps these ids with
// each revision, so a rollout's page lists the commits that moved it. Rollouts are few and
// small; a record that is the same object in both revisions (a snapshot built from another
// keeps the objects of the records it did not change) is not compared further.
import { deepEqual } from '../input-diff.ts';
import { compareIds } from '../ids.ts';
import type { Snapshot } from '../snapshot.ts';

/** The ids of the rollouts whose records differ, in id order. */
export function changedRolloutIds(before: Pick<Snapshot, 'rollouts'>, after: Pick<Snapshot, 'rollouts'>): string[] {
  if (before.rollouts === after.rollouts) return [];
  const ids = new Set([...before.rollouts.keys(), ...after.rollouts.keys()]);
  const changed: string[] = [];
  for (const id of ids) {
    const was = before.rollouts.get(id);
    const is = after.rollouts.get(id);
    if (was !== is && (was === undefined || is === undefined || !deepEqual(was, is))) changed.push(id);
  }
  return changed.sort(compareIds);
}
