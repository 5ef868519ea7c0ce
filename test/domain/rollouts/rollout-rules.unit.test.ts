// The rules of rollouts against their revision (src/domain/rollouts/rollout-rules.ts): each
// rule once with the problem it gives, where it is, and how bad it is.
import { describe, expect, it } from 'vitest';
import { formatProblem, type Problem, problemIdentity, withSources } from '../../../src/domain/problem.ts';
import type { Cluster, PlatformComponent } from '../../../src/domain/records.ts';
import type { Rollout } from '../../../src/domain/rollouts/rollout-record.ts';
import { checkRollout, checkRollouts, checkRolloutsOfComponent } from '../../../src/domain/rollouts/rollout-rules.ts';
import {
  catalogMap,
  cluster,
  clustersMap,
  fourEnvironments,
  KPS,
  rollout,
  THREE_WAVES,
} from '../../fixtures/rollout-fleet.ts';

const PODINFO: PlatformComponent = {
  id: 'podinfo',
  component_path: 'podinfo',
  component_version: '6.7.1',
  oci_url: 'oci://x',
  oci_tag: '6.7.1',
  cluster_env_enabled: false,
  depends_on: [],
};

const sources = (rollouts: Rollout[], list: Cluster[] = fourEnvironments(), catalog = catalogMap(KPS, PODINFO)) => ({
  clusters: clustersMap(list),
  platform_components: catalog,
  rollouts: new Map(rollouts.map((r) => [r.id, r])),
});

// Placed in the rollout record; the file is added as for every record, from where it was read.
const files = new Map(['kps-67-5', 'a', 'b', 'c'].map((id) => [`rollouts/${id}`, `rollouts/${id}.yaml`]));
const brief = (problems: Problem[]) =>
  withSources(problems, files).map((p) => ({ code: p.code, severity: p.severity, where: formatProblem(p) }));

describe('a rollout that breaks no rule', () => {
  it('has no problem', () => {
    expect(checkRollouts(sources([rollout({ waves: THREE_WAVES, released: 4 })]))).toEqual([]);
  });
});

describe('errors', () => {
  it('a catalog entry that does not exist is a dangling reference, and the one problem said', () => {
    const r = rollout({ component: 'kps-typo', waves: THREE_WAVES, released: 3 });
    const problems = checkRollout(sources([r]), r);
    expect(problems).toEqual([
      {
        code: 'dangling_reference',
        severity: 'error',
        at: { record: { collection: 'rollouts', id: 'kps-67-5' }, field: '/component' },
        message: 'changes the catalog entry "kps-typo", which does not exist',
        refersTo: { collection: 'platform_components', id: 'kps-typo' },
        identity: 'rollouts/kps-67-5.yaml component:kps-typo',
      },
    ]);
  });

  it('a catalog entry deleted under a rollout is the same problem', () => {
    const r = rollout({ waves: THREE_WAVES, released: 1 });
    expect(checkRollouts(sources([r]))).toEqual([]);
    const after = sources([r], fourEnvironments(), catalogMap(PODINFO));
    expect(checkRolloutsOfComponent(after, KPS.id).map((p) => p.code)).toEqual(['dangling_reference']);
  });

  it('a set that changes nothing', () => {
    const r = rollout({ set: { oci_tag: '67.4.0', component_version: '67.4.0' }, waves: THREE_WAVES });
    expect(brief(checkRollout(sources([r]), r))).toEqual([
      {
        code: 'set_unchanged',
        severity: 'error',
        where:
          'rollouts/kps-67-5.yaml /set: sets only values the catalog entry "kube-prometheus-stack" has already ' +
          '(component_version 67.4.0, oci_tag 67.4.0): the rollout would change nothing',
      },
    ]);
    // One field that differs is a change.
    const one = rollout({ set: { oci_tag: '67.4.0', component_version: '67.5.0' }, waves: THREE_WAVES });
    expect(checkRollout(sources([one]), one)).toEqual([]);
  });

  it('two rollouts of one component: every one after the first by id', () => {
    const a = rollout({ id: 'a', waves: THREE_WAVES });
    const b = rollout({ id: 'b', waves: THREE_WAVES });
    const waves = [{ name: 'all', environments: ['dev'] }];
    const c = rollout({ id: 'c', component: 'podinfo', set: { oci_tag: '6.8.0' }, waves });
    const s = sources([b, c, a], [...fourEnvironments(), cluster('dev-pi', 'dev', ['podinfo'])]);
    expect(brief(checkRollouts(s))).toEqual([
      {
        code: 'duplicate_rollout',
        severity: 'error',
        where:
          'rollouts/b.yaml /component: changes the catalog entry "kube-prometheus-stack", as the rollout "a" does ' +
          'already: one rollout per component at a time',
      },
    ]);
  });

  it('released past the last step', () => {
    expect(checkRollouts(sources([rollout({ waves: THREE_WAVES, released: 4 })]))).toEqual([]);
    expect(brief(checkRollouts(sources([rollout({ waves: THREE_WAVES, released: 5 })])))).toEqual([
      {
        code: 'released_out_of_range',
        severity: 'error',
        where: 'rollouts/kps-67-5.yaml /released: is 5, but the rollout has 4 steps: 0 to 4',
      },
    ]);
  });
});

describe('warnings', () => {
  it('a wave with no cluster to change, and a wave naming a cluster that is not a member', () => {
    const waves = [
      { name: 'canary', clusters: ['dev-eu-1', 'dev-no-kps', 'ghost'] },
      { name: 'again', clusters: ['dev-eu-1'] },
      { name: 'rest', environments: ['dev', 'qa', 'uat', 'prod'] },
    ];
    expect(brief(checkRollouts(sources([rollout({ waves })])))).toEqual([
      {
        code: 'wave_cluster_not_member',
        severity: 'warning',
        where:
          'rollouts/kps-67-5.yaml /waves/0/clusters/1: names the cluster "dev-no-kps", which does not use ' +
          '"kube-prometheus-stack"',
      },
      {
        code: 'wave_cluster_not_member',
        severity: 'warning',
        where: 'rollouts/kps-67-5.yaml /waves/0/clusters/2: names the cluster "ghost", which does not exist',
      },
      {
        code: 'empty_wave',
        severity: 'warning',
        where:
          'rollouts/kps-67-5.yaml /waves/1: the wave "again" has no cluster to change: no cluster that uses ' +
          '"kube-prometheus-stack" is selected by it and not by an earlier wave',
      },
    ]);
  });

  it('members in no wave, the first 20 named and the rest counted', () => {
    const list = Array.from({ length: 23 }, (_, i) => cluster(`prod-${String(i).padStart(2, '0')}`, 'prod'));
    const problems = checkRollouts(sources([rollout({ waves: [{ name: 'one', clusters: ['prod-00'] }] })], list));
    const names = Array.from({ length: 20 }, (_, i) => `prod-${String(i + 1).padStart(2, '0')}`).join(', ');
    expect(brief(problems)).toEqual([
      {
        code: 'members_in_no_wave',
        severity: 'warning',
        where:
          'rollouts/kps-67-5.yaml /waves: 22 clusters use "kube-prometheus-stack" but are in no wave: the rollout ' +
          `never changes them, and completing it does: ${names} and 2 more`,
      },
    ]);
  });

  it('are not said for a rollout whose entry is missing (the dangling reference is the one to fix)', () => {
    const r = rollout({ component: 'gone', waves: [{ name: 'x', clusters: ['ghost'] }], released: 9 });
    expect(checkRollouts(sources([r])).map((p) => p.code)).toEqual(['dangling_reference']);
  });
});

describe('problems of two rollouts', () => {
  it('are two problems, not one, to the ratchet', () => {
    const a = rollout({ id: 'a', component: 'gone', waves: THREE_WAVES });
    const b = rollout({ id: 'b', component: 'gone', waves: THREE_WAVES });
    const identities = checkRollouts(sources([a, b])).map(problemIdentity);
    expect(new Set(identities).size).toBe(2);
  });
});

describe('require_reports', () => {
  it('with a set that names no chart version warns that only events naming the rollout report', () => {
    const set = { oci_url: 'oci://mirror.example.com/charts' };
    const r = rollout({ set, waves: THREE_WAVES, require_reports: true });
    expect(brief(checkRollout(sources([r]), r))).toEqual([
      {
        code: 'reports_need_rollout_id',
        severity: 'warning',
        where:
          'rollouts/kps-67-5.yaml /require_reports: requires reports, but its set changes neither oci_tag nor ' +
          "component_version, the chart version a HelmRelease's events carry: a cluster counts only once an event " +
          "names the rollout in metadata.rollout (the HelmRelease's annotation " +
          'event.toolkit.fluxcd.io/rollout: kps-67-5)',
      },
    ]);
    const tagged = rollout({ waves: THREE_WAVES, require_reports: true });
    expect(checkRollout(sources([tagged]), tagged)).toEqual([]);
  });
});
