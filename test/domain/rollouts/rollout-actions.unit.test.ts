// What each action on a rollout changes (src/domain/rollouts/rollout-actions.ts), as the
// writes of one change set, and what those writes do to the clusters' answers.
import { describe, expect, it } from 'vitest';
import type { PlatformComponent } from '../../../src/domain/records.ts';
import { type ActionContext, rolloutAction, type RolloutChange } from '../../../src/domain/rollouts/rollout-actions.ts';
import { planRollout } from '../../../src/domain/rollouts/rollout-plan.ts';
import type { Rollout } from '../../../src/domain/rollouts/rollout-record.ts';
import { effectiveComponent, rolloutView } from '../../../src/domain/rollouts/rollout-view.ts';
import {
  catalogMap,
  cluster,
  clustersMap,
  fourEnvironments,
  KPS,
  rollout,
  THREE_WAVES,
} from '../../fixtures/rollout-fleet.ts';

const list = [...fourEnvironments(), cluster('dev-pinned', 'dev', [{ id: KPS.id, oci_tag: 'hotfix' }])];
const clusters = clustersMap(list);
const context = (r: Rollout, extra: Partial<ActionContext> = {}): ActionContext => ({
  plan: planRollout(r, clusters),
  ...extra,
});
const UNCHANGED = { ok: false, refusal: { reason: 'unchanged' } };

function changeOf(result: ReturnType<typeof rolloutAction>): RolloutChange {
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
  return result.change;
}

/** Each member's answer fields from the entry, as the platform-components answer takes them. */
function answers(rollouts: Rollout[], entry: PlatformComponent): Map<string, string> {
  const byId = new Map(rollouts.map((r) => [r.id, r]));
  const view = rolloutView({ clusters, platform_components: catalogMap(entry), rollouts: byId });
  const out = new Map<string, string>();
  for (const c of list) {
    const ref = c.platform_components.find((r) => r.id === KPS.id);
    if (!ref) continue;
    const e = effectiveComponent(view, c, ref, entry);
    const fields = [ref.component_path ?? e.component_path, e.component_version, e.oci_url, ref.oci_tag ?? e.oci_tag];
    out.set(c.id, JSON.stringify(fields));
  }
  return out;
}

const changedBetween = (a: Map<string, string>, b: Map<string, string>) =>
  [...a.keys()].filter((id) => a.get(id) !== b.get(id)).sort();

describe('advance', () => {
  it('releases the next step; its clusters, and only they, get another answer', () => {
    const r = rollout({ waves: THREE_WAVES, released: 1, approved: ['non-prod'] });
    const change = changeOf(rolloutAction({ kind: 'advance' }, context(r, { etags: { rollout: '"e1"' } })));
    expect(change).toEqual({
      message: 'rollout kps-67-5: release step 2 (wave non-prod, 6 clusters)',
      writes: [{ op: 'patch', collection: 'rollouts', id: 'kps-67-5', patch: { released: 2 }, if_match: '"e1"' }],
      rollout: { ...r, released: 2 },
    });
    const moved = changedBetween(answers([r], KPS), answers([change.rollout!], KPS));
    expect(moved).toEqual(['dev-eu-2', 'dev-pinned', 'dev-us-1', 'qa-eu-1', 'qa-us-1', 'uat-eu-1']);
  });

  it('carries the message it is given (the evidence of an automatic release)', () => {
    const r = rollout({ waves: THREE_WAVES });
    const change = changeOf(rolloutAction({ kind: 'advance', message: 'with evidence' }, context(r)));
    expect(change.message).toBe('with evidence');
  });

  it('is refused when every step is released', () => {
    const r = rollout({ waves: THREE_WAVES, released: 4 });
    expect(rolloutAction({ kind: 'advance' }, context(r))).toEqual({
      ok: false,
      refusal: { reason: 'invalid', message: 'every step of rollout kps-67-5 is released already (step 4 of 4)' },
    });
  });
});

describe('approve, pause, resume', () => {
  const r = rollout({ waves: THREE_WAVES, released: 1 });

  it('approve adds a wave that waits for approval', () => {
    const change = changeOf(rolloutAction({ kind: 'approve', wave: 'non-prod' }, context(r)));
    expect(change.writes).toEqual([
      { op: 'patch', collection: 'rollouts', id: 'kps-67-5', patch: { approved: ['non-prod'] } },
    ]);
    expect(change.message).toBe('rollout kps-67-5: approve wave non-prod');
  });

  it('approve says why it changes nothing', () => {
    const refusal = (wave: string, on = r) => {
      const result = rolloutAction({ kind: 'approve', wave }, context(on));
      return result.ok ? undefined : result.refusal;
    };
    expect(refusal('qa')).toEqual({
      reason: 'invalid',
      message: 'rollout kps-67-5 has no wave "qa" (its waves: canary, non-prod, prod)',
    });
    expect(refusal('prod')).toEqual({
      reason: 'invalid',
      message: 'wave prod of rollout kps-67-5 does not wait for approval',
    });
    const approved = rollout({ waves: THREE_WAVES, released: 1, approved: ['non-prod'] });
    expect(refusal('non-prod', approved)).toEqual({
      reason: 'unchanged',
      message: 'wave non-prod of rollout kps-67-5 is approved already',
    });
  });

  it('pause and resume set paused, and say where the rollout stands', () => {
    const paused = changeOf(rolloutAction({ kind: 'pause' }, context(r)));
    expect(paused.writes[0]).toMatchObject({ patch: { paused: true } });
    expect(paused.message).toBe('rollout kps-67-5: pause at step 1 of 4');
    expect(rolloutAction({ kind: 'pause' }, context(paused.rollout!))).toMatchObject(UNCHANGED);
    const resumed = changeOf(rolloutAction({ kind: 'resume' }, context(paused.rollout!)));
    expect(resumed.writes[0]).toMatchObject({ patch: { paused: false } });
    expect(rolloutAction({ kind: 'resume' }, context(r))).toMatchObject(UNCHANGED);
  });
});

describe('rollback', () => {
  it('to 0 gives every cluster the answer it had before the rollout, the very entry object, and pauses', () => {
    const r = rollout({ waves: THREE_WAVES, released: 3, approved: ['non-prod'] });
    const change = changeOf(rolloutAction({ kind: 'rollback', step: 0 }, context(r)));
    expect(change.writes[0]).toMatchObject({ patch: { released: 0, paused: true } });
    expect(change.message).toBe(
      'rollout kps-67-5: roll back to 0 (the catalog entry as it is, everywhere) from step 3, and pause',
    );
    expect(answers([change.rollout!], KPS)).toEqual(answers([], KPS));
    const rollouts = new Map([[r.id, change.rollout!]]);
    const view = rolloutView({ clusters, platform_components: catalogMap(KPS), rollouts });
    for (const c of list) expect(effectiveComponent(view, c, c.platform_components[0], KPS)).toBe(KPS);
  });

  it('to a lower step un-releases the steps after it', () => {
    const r = rollout({ waves: THREE_WAVES, released: 3, approved: ['non-prod'] });
    const change = changeOf(rolloutAction({ kind: 'rollback', step: 2 }, context(r)));
    const moved = changedBetween(answers([r], KPS), answers([change.rollout!], KPS));
    expect(moved).toEqual(['prod-ap-1', 'prod-eu-1', 'prod-eu-2']);
  });

  it.each([3, 4, -1, 1.5])('is refused to %j from step 3', (step) => {
    const r = rollout({ waves: THREE_WAVES, released: 3 });
    expect(rolloutAction({ kind: 'rollback', step }, context(r))).toEqual({
      ok: false,
      refusal: { reason: 'invalid', message: `rollout kps-67-5 cannot roll back to ${step}: a step from 0 to 2` },
    });
  });
});

describe('complete', () => {
  const r = rollout({ waves: THREE_WAVES, released: 4, approved: ['non-prod'] });

  it('folds set into the catalog entry and deletes the rollout, in one change set', () => {
    const etags = { rollout: '"r"', entry: '"c"' };
    const change = changeOf(rolloutAction({ kind: 'complete' }, context(r, { entry: KPS, etags })));
    expect(change).toEqual({
      message:
        'rollout kps-67-5: complete: fold component_version 67.5.0, oci_tag 67.5.0 into ' +
        'platform_components/kube-prometheus-stack, remove the rollout',
      writes: [
        {
          op: 'replace',
          collection: 'platform_components',
          id: KPS.id,
          record: { ...KPS, component_version: '67.5.0', oci_tag: '67.5.0' },
          if_match: '"c"',
        },
        { op: 'delete', collection: 'rollouts', id: 'kps-67-5', if_match: '"r"' },
      ],
      rollout: null,
    });
  });

  it('changes no cluster answer when every step is released', () => {
    const change = changeOf(rolloutAction({ kind: 'complete' }, context(r, { entry: KPS })));
    const folded = (change.writes[0] as { record: PlatformComponent }).record;
    expect(answers([], folded)).toEqual(answers([r], KPS));
  });

  it('changes the clusters in no wave, which the rollout never reached', () => {
    const partial = rollout({ waves: [{ name: 'dev', environments: ['dev'] }], released: 1 });
    const change = changeOf(rolloutAction({ kind: 'complete' }, context(partial, { entry: KPS })));
    const folded = (change.writes[0] as { record: PlatformComponent }).record;
    expect(changedBetween(answers([partial], KPS), answers([], folded))).toEqual([
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

  it('is refused while steps are not released, unless forced', () => {
    const early = rollout({ waves: THREE_WAVES, released: 2, approved: ['non-prod'] });
    expect(rolloutAction({ kind: 'complete' }, context(early, { entry: KPS }))).toEqual({
      ok: false,
      refusal: {
        reason: 'invalid',
        message:
          'steps 3 to 4 are not released: completing rollout kps-67-5 now changes the answers of 6 clusters ' +
          'at once (force it to do so)',
      },
    });
    expect(rolloutAction({ kind: 'complete', force: true }, context(early, { entry: KPS })).ok).toBe(true);
  });

  it('is refused without its catalog entry', () => {
    const refused = rolloutAction({ kind: 'complete' }, context(r));
    expect(refused).toMatchObject({ ok: false, refusal: { reason: 'invalid' } });
  });
});
