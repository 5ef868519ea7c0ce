// The rollouts a change creates, edits or deletes, in the report of the change
// (src/domain/rollouts/rollout-plan-changes.ts through diffSnapshots): each with the clusters of
// every step as the service plans them, before any step is released.
import { describe, expect, it } from 'vitest';
import type { PlatformComponent } from '../../../src/domain/records.ts';
import { diffSnapshots } from '../../../src/domain/revision-diff.ts';
import type { Rollout } from '../../../src/domain/rollouts/rollout-record.ts';
import { createSnapshot, type Snapshot, withRecord } from '../../../src/domain/snapshot.ts';
import { fourEnvironments, KPS, rollout, THREE_WAVES } from '../../fixtures/rollout-fleet.ts';

const PODINFO: PlatformComponent = { ...KPS, id: 'podinfo', component_path: 'podinfo', depends_on: [] };

function base(): Snapshot {
  const built = createSnapshot(
    {
      clusters: fourEnvironments(),
      platform_components: [KPS, PODINFO].map((e) => ({ ...e, depends_on: [...e.depends_on] })),
      namespaces: [],
      rolebindings: [],
      rollouts: [],
    },
    'r0',
  );
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

function write(snapshot: Snapshot, id: string, r: Rollout | null): Snapshot {
  const built = withRecord(snapshot, 'rollouts', id, r === null ? null : structuredClone(r), `${snapshot.revision}+`);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

const STEPS = [
  { step: 1, wave: 'canary', clusters: ['dev-eu-1'] },
  { step: 2, wave: 'non-prod', clusters: ['dev-eu-2', 'dev-us-1', 'qa-eu-1', 'qa-us-1', 'uat-eu-1'] },
  { step: 3, wave: 'prod', clusters: ['prod-ap-1', 'prod-eu-1', 'prod-eu-2'] },
  { step: 4, wave: 'prod', clusters: ['prod-eu-3', 'prod-us-1', 'prod-us-2'] },
];

describe('the rollouts in the report of a change', () => {
  it('lists a new rollout with the clusters of every step, though nothing is released and no answer changes', () => {
    const before = base();
    const report = diffSnapshots(before, write(before, 'kps-67-5', rollout({ waves: THREE_WAVES })));
    expect(report.clusters).toEqual([]);
    expect(report.rollouts).toEqual([
      { id: 'kps-67-5', status: 'added', component: KPS.id, released: 0, steps: STEPS, unassigned: [] },
    ]);
  });

  it('lists an edited rollout as the change leaves it, and names the clusters no wave selects', () => {
    const started = write(base(), 'kps-67-5', rollout({ waves: THREE_WAVES }));
    const devOnly = rollout({ waves: [{ name: 'dev', environments: ['dev'] }], released: 1 });
    const report = diffSnapshots(started, write(started, 'kps-67-5', devOnly));
    expect(report.rollouts).toHaveLength(1);
    expect(report.rollouts[0]).toMatchObject({ status: 'changed', released: 1 });
    expect(report.rollouts[0].steps).toEqual([
      { step: 1, wave: 'dev', clusters: ['dev-eu-1', 'dev-eu-2', 'dev-us-1'] },
    ]);
    expect(report.rollouts[0].unassigned).toEqual([
      'prod-ap-1',
      'prod-eu-1',
      'prod-eu-2',
      'prod-eu-3',
      'prod-us-1',
      'prod-us-2',
      'qa-eu-1',
      'qa-us-1',
      'uat-eu-1',
    ]);
  });

  it('lists a deleted rollout as the base had it, and leaves out rollouts the change does not touch', () => {
    const two = write(write(base(), 'kps-67-5', rollout({ waves: THREE_WAVES })), 'podinfo-7', {
      ...rollout({ waves: THREE_WAVES }),
      id: 'podinfo-7',
      component: 'podinfo',
    });
    const report = diffSnapshots(two, write(two, 'kps-67-5', null));
    expect(report.rollouts.map((r) => [r.id, r.status, r.steps.length])).toEqual([['kps-67-5', 'removed', 4]]);
    // podinfo-7 is in both revisions as it was: not listed; nor is anything between a revision and itself.
    expect(diffSnapshots(two, two).rollouts).toEqual([]);
  });
});
