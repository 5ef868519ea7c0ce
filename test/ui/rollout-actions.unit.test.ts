// The actions on a rollout the web UI offers (ui/src/edits/rollout-actions.ts): only those that
// fit the record and the service's status, and each one's change set with the ETag it was read
// with and the tool's commit message — the same record changes as `gitops-config rollout`.
// Pure code, tested here without a browser; test/e2e/ui-rollout-actions.test.ts commits them.
import { describe, expect, it } from 'vitest';
import type { PlatformComponentRecord, RolloutDetail, RolloutRecord } from '../../ui/src/api/types.ts';
import { actionChange, holdingBack, offeredActions, stillOffered } from '../../ui/src/edits/rollout-actions.ts';

const record: RolloutRecord = {
  id: 'kps-67-5',
  component: 'kube-prometheus-stack',
  set: { component_version: '67.5.0', oci_tag: '67.5.0' },
  waves: [
    { name: 'canary', clusters: ['dev-eu-1'], environments: [], batch: null, soak: '0s', approval: false },
    { name: 'prod', clusters: [], environments: ['prod'], batch: 1, soak: '1h', approval: true },
  ],
  failure_budget: 0,
  progress_deadline: '1h',
  require_reports: false,
  released: 1,
  paused: false,
  approved: [],
};
const ETAG = '"rollout-etag"';

function step(n: number, wave: string, ids: string[], state: 'released' | 'fetched' | 'pending' | 'offline') {
  return {
    step: n,
    wave,
    released_in: null,
    released_at: null,
    done_at: state === 'fetched' ? '2025-03-04T14:00:00Z' : null,
    soak_ends_at: null,
    clusters: ids.map((id) => ({ id, state, since: null })),
  };
}

function detail(fields: Partial<RolloutDetail> = {}): RolloutDetail {
  return {
    id: record.id,
    component: record.component,
    set: record.set,
    state: 'waiting',
    reason: 'waits for approval of wave prod',
    released: 1,
    clusters: { pending: 2, released: 0, fetched: 1, succeeded: 0, failed: 0, offline: 0, pinned: 0 },
    steps: [step(1, 'canary', ['dev-eu-1'], 'fetched'), step(2, 'prod', ['prod-eu-1'], 'pending')].concat(
      step(3, 'prod', ['prod-us-1'], 'pending'),
    ),
    ...fields,
  };
}

describe('the actions offered', () => {
  it('waiting for approval: approve that wave, pause, a forced advance, roll back; no resume, no complete', () => {
    expect(offeredActions(record, detail())).toEqual({
      approve: { wave: 'prod', step: 2 },
      pause: true,
      resume: false,
      advance: { step: 2, wave: 'prod', clusters: 1, gatesPassed: false },
      rollback: [{ step: 0, wave: '', clusters: 0 }],
      complete: false,
    });
  });

  it('paused: resume and no pause; approved: nothing to approve; ready: an advance the gates passed', () => {
    const paused = offeredActions({ ...record, paused: true, approved: ['prod'] }, detail({ state: 'paused' }));
    expect(paused).toMatchObject({ approve: undefined, pause: false, resume: true });
    expect(offeredActions({ ...record, approved: ['prod'] }, detail({ state: 'ready' })).advance?.gatesPassed).toBe(
      true,
    );
  });

  it('every step released: complete, no advance and no pause; nothing released: no roll back', () => {
    const all = offeredActions({ ...record, released: 3, approved: ['prod'] }, detail({ released: 3 }));
    expect(all).toMatchObject({ advance: undefined, pause: false, complete: true });
    expect(all.rollback?.map((s) => s.step)).toEqual([0, 1, 2]);
    expect(offeredActions({ ...record, released: 0 }, detail({ released: 0 })).rollback).toBeUndefined();
  });

  it('an action the rollout moved past since is no longer offered', () => {
    const moved = offeredActions({ ...record, approved: ['prod'], paused: true }, detail());
    expect(stillOffered({ kind: 'approve', wave: 'prod' }, moved)).toBe(false);
    expect(stillOffered({ kind: 'pause' }, moved)).toBe(false);
    expect(stillOffered({ kind: 'resume' }, moved)).toBe(true);
    expect(stillOffered({ kind: 'rollback', step: 1 }, moved)).toBe(false);
  });
});

describe('the change set of each action', () => {
  const read = { record, etag: ETAG };
  const writes = (action: Parameters<typeof actionChange>[0], entry?: Parameters<typeof actionChange>[3]) => {
    const change = actionChange(action, read, detail(), entry);
    return { message: change.message, writes: change.set.request(change.message).writes };
  };
  const patch = (fields: object) => [
    { op: 'patch', collection: 'rollouts', id: 'kps-67-5', patch: fields, if_match: ETAG },
  ];

  it('approve, pause, resume, advance and roll back patch the record on the ETag it was read with', () => {
    expect(writes({ kind: 'approve', wave: 'prod' })).toEqual({
      message: 'rollout kps-67-5: approve wave prod',
      writes: patch({ approved: ['prod'] }),
    });
    expect(writes({ kind: 'pause' })).toEqual({
      message: 'rollout kps-67-5: pause at step 1 of 3',
      writes: patch({ paused: true }),
    });
    const resume = actionChange({ kind: 'resume' }, { record: { ...record, paused: true }, etag: ETAG }, detail());
    expect(resume.message).toBe('rollout kps-67-5: resume at step 1 of 3');
    expect(resume.set.request(resume.message).writes).toEqual(patch({ paused: false }));
    expect(writes({ kind: 'advance', forced: false })).toEqual({
      message: 'rollout kps-67-5: release step 2 (wave prod, 1 cluster)',
      writes: patch({ released: 2 }),
    });
    expect(writes({ kind: 'rollback', step: 0 })).toEqual({
      message: 'rollout kps-67-5: roll back to 0 (the catalog entry as it is, everywhere) from step 1, and pause',
      writes: patch({ released: 0, paused: true }),
    });
  });

  it('a forced advance says so in its message, with why the gates did not pass', () => {
    expect(writes({ kind: 'advance', forced: true }).message).toBe(
      'rollout kps-67-5: release step 2 (wave prod, 1 cluster) — ' +
        'forced while waiting: waits for approval of wave prod',
    );
  });

  it('complete folds set into the catalog entry and deletes the rollout, each on its ETag, in one change set', () => {
    const entry: PlatformComponentRecord = {
      id: 'kube-prometheus-stack',
      component_path: 'kube-prometheus-stack',
      component_version: '67.4.0',
      oci_url: 'oci://ghcr.io/prometheus-community/charts',
      oci_tag: '67.4.0',
      depends_on: [],
    } as unknown as PlatformComponentRecord;
    expect(writes({ kind: 'complete' }, { record: entry, etag: '"entry-etag"' })).toEqual({
      message:
        'rollout kps-67-5: complete: fold component_version 67.5.0, oci_tag 67.5.0 into ' +
        'platform_components/kube-prometheus-stack, remove the rollout',
      writes: [
        {
          op: 'patch',
          collection: 'platform_components',
          id: 'kube-prometheus-stack',
          patch: { component_version: '67.5.0', oci_tag: '67.5.0' },
          if_match: '"entry-etag"',
        },
        { op: 'delete', collection: 'rollouts', id: 'kps-67-5', if_match: ETAG },
      ],
    });
    expect(() => actionChange({ kind: 'complete' }, read, detail())).toThrow(/was not read/);
  });
});

describe('what holds a rollout back', () => {
  it('the failed and offline clusters of released steps, and the unfetched of the first step not done', () => {
    const halted = detail({
      state: 'halted',
      released: 3,
      steps: [
        step(1, 'canary', ['dev-eu-1'], 'fetched'),
        {
          ...step(2, 'prod', ['prod-eu-1', 'prod-eu-2'], 'released'),
          clusters: [
            { id: 'prod-eu-1', state: 'released', since: null },
            { id: 'prod-eu-2', state: 'offline', since: null, message: 'no poll for 30m' },
          ],
        },
        step(3, 'prod', ['prod-us-1'], 'released'),
      ],
    });
    expect(holdingBack(halted).map((c) => [c.id, c.state])).toEqual([
      ['prod-eu-1', 'released'],
      ['prod-eu-2', 'offline'],
    ]);
  });
});
