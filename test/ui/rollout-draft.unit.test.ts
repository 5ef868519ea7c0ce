// The wave builder's draft (ui/src/data/rollout-draft.ts): the proposal made from a catalog
// entry and the clusters using it, merging waves, the counts shown while building, the checks of
// every field, and the record the change set creates. Pure code of the UI, tested without a browser.
import { describe, expect, it } from 'vitest';
import type { ClusterRecord, PlatformComponentRecord } from '../../ui/src/api/types.ts';
import {
  draftProblems,
  draftRecord,
  type Member,
  membersOf,
  mergeWaves,
  proposeDraft,
  proposedId,
  waveSizes,
} from '../../ui/src/data/rollout-draft.ts';

const ENTRY: PlatformComponentRecord = {
  id: 'traefik',
  component_path: 'traefik',
  component_version: '33.2.1',
  oci_url: 'oci://ghcr.io/traefik/helm',
  oci_tag: '33.2.1',
  cluster_env_enabled: false,
  depends_on: [],
};
const m = (id: string, environment: Member['environment']): Member => ({ id, environment });
/** Two dev clusters, one uat, two prod: no qa. */
const MEMBERS = [m('dev-b', 'dev'), m('dev-a', 'dev'), m('prod-1', 'prod'), m('prod-2', 'prod'), m('uat-1', 'uat')];

describe('the proposal of the wave builder', () => {
  it('takes the clusters using the component, sorted by id, with their environments', () => {
    const cluster = (id: string, environment: string, components: string[]) =>
      ({ id, environment, platform_components: components.map((c) => ({ id: c })) }) as unknown as ClusterRecord;
    const clusters = [
      cluster('b', 'qa', ['traefik']),
      cluster('a', 'dev', ['traefik', 'x']),
      cluster('c', 'dev', ['x']),
    ];
    expect(membersOf(clusters, 'traefik')).toEqual([m('a', 'dev'), m('b', 'qa')]);
  });

  it('proposes a canary of one cluster, then each environment present in order, gated later on', () => {
    const draft = proposeDraft(
      ENTRY,
      [...MEMBERS].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(draft).toMatchObject({ id: 'traefik-33.2.1', version: '33.2.1', tag: '33.2.1', failureBudget: '0' });
    expect(draft.waves.map((w) => [w.name, w.clusters, w.environments, w.batch, w.soak, w.approval])).toEqual([
      ['canary', ['dev-a'], [], '', '30m', false],
      ['dev', [], ['dev'], '', '1h', false],
      ['uat', [], ['uat'], '', '1h', true],
      ['prod', [], ['prod'], '25%', '30m', true],
    ]);
  });

  it('proposes no wave for an environment whose one cluster is the canary', () => {
    const draft = proposeDraft(ENTRY, [m('dev-a', 'dev'), m('qa-1', 'qa')]);
    expect(draft.waves.map((w) => w.name)).toEqual(['canary', 'qa']);
  });

  it('makes an id of the characters an id may hold', () => {
    expect(proposedId('traefik', '34.0.0+build/7')).toBe('traefik-34.0.0-build-7');
    expect(proposedId('traefik', '')).toBe('traefik');
  });
});

describe('building the waves', () => {
  const draft = proposeDraft(ENTRY, [m('dev-a', 'dev'), m('dev-b', 'dev'), m('prod-1', 'prod'), m('uat-1', 'uat')]);

  it('merges a wave into the one before it: one wave of both environments, in their order', () => {
    const merged = mergeWaves(draft.waves, 1);
    expect(merged.map((w) => [w.name, w.environments])).toEqual([
      ['canary', []],
      ['dev', ['dev', 'uat']],
      ['prod', ['prod']],
    ]);
    expect(mergeWaves(draft.waves, 3)).toEqual(draft.waves);
  });

  it('counts the clusters each wave selects minus earlier waves, and those no wave does', () => {
    expect(
      waveSizes(draft.waves, [m('dev-a', 'dev'), m('dev-b', 'dev'), m('prod-1', 'prod'), m('uat-1', 'uat')]),
    ).toEqual({ sizes: [1, 1, 1, 1], left: 0 });
    expect(waveSizes(draft.waves.slice(0, 2), [m('dev-a', 'dev'), m('prod-1', 'prod')])).toEqual({
      sizes: [1, 0],
      left: 1,
    });
  });

  it('names every field that is not right, and nothing for a draft the service would take', () => {
    const next = { ...draft, version: '34.0.0', tag: '34.0.0' };
    expect(draftProblems(next, ENTRY)).toEqual([]);
    const bad = {
      ...next,
      id: '-x',
      failureBudget: '-1',
      progressDeadline: '1 day',
      waves: [
        { ...next.waves[0], soak: '2 hours' },
        { ...next.waves[1], name: 'canary', batch: '0' },
      ],
    };
    expect(draftProblems(bad, ENTRY).map((p) => p.field)).toEqual([
      'Rollout id',
      'Failure budget',
      'Progress deadline',
      'Wave 1 soak',
      'Wave 2 name',
      'Wave 2 batch',
    ]);
    expect(draftProblems(draft, ENTRY)).toEqual([
      { field: 'New version', message: 'the catalog has 33.2.1 (tag 33.2.1) already: nothing to roll out' },
    ]);
  });

  it('makes the record: set holds what differs from the catalog; step 1 released unless created paused', () => {
    const record = draftRecord({ ...draft, version: '34.0.0', tag: '33.2.1' }, ENTRY);
    expect(record).toMatchObject({
      id: 'traefik-33.2.1',
      component: 'traefik',
      set: { component_version: '34.0.0' },
      failure_budget: 0,
      progress_deadline: '1h',
      released: 1,
      paused: false,
      approved: [],
    });
    expect(record.waves.map((w) => w.batch)).toEqual([null, null, null, '25%']);
    const paused = draftRecord(
      { ...draft, tag: '34.0.0', startPaused: true, waves: [{ ...draft.waves[1], batch: '2' }] },
      ENTRY,
    );
    expect(paused).toMatchObject({ set: { oci_tag: '34.0.0' }, released: 0, paused: true });
    expect(paused.waves[0].batch).toBe(2);
  });
});
