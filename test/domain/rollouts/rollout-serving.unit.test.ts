// What a rollout does to the answers of a revision, through the functions the read path, the
// encoded-body cache, the diff and the history use: the platform-components projection,
// endpointDependencies (compared by identity: a body is encoded again only when one of them is
// another object), changedClusterIds and the diff report. Revisions are made from one another
// with withRecord, as a write makes them, so that unchanged records stay the same objects.
import { describe, expect, it } from 'vitest';
import { changedClusterIds } from '../../../src/domain/changed-clusters.ts';
import { endpointDependencies, MAX_RESPONSE_BYTES, perClusterInputs } from '../../../src/domain/projections/index.ts';
import type { Cluster, PlatformComponent } from '../../../src/domain/records.ts';
import { diffSnapshots } from '../../../src/domain/revision-diff.ts';
import { applySet, type Rollout } from '../../../src/domain/rollouts/rollout-record.ts';
import { analyzeFleet, analyzeFleetAfresh, type FleetAnalysis } from '../../../src/domain/rules/fleet-analysis.ts';
import { createSnapshot, type Snapshot, withRecord } from '../../../src/domain/snapshot.ts';
import { cluster, fourEnvironments, KPS, rollout, THREE_WAVES } from '../../fixtures/rollout-fleet.ts';

const PODINFO: PlatformComponent = {
  id: 'podinfo',
  component_path: 'podinfo',
  component_version: '6.7.1',
  oci_url: 'oci://ghcr.io/x',
  oci_tag: '6.7.1',
  cluster_env_enabled: false,
  depends_on: [],
};

function base(list: Cluster[] = fourEnvironments(), catalog: PlatformComponent[] = [KPS, PODINFO]): Snapshot {
  const built = createSnapshot(
    {
      clusters: list,
      platform_components: catalog.map((e) => ({ ...e, depends_on: [...e.depends_on] })),
      namespaces: [],
      rolebindings: [],
      rollouts: [],
    },
    'r0',
  );
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

function write(snapshot: Snapshot, r: Rollout | null, id = r?.id ?? 'kps-67-5'): Snapshot {
  const built = withRecord(snapshot, 'rollouts', id, r === null ? null : structuredClone(r), `${snapshot.revision}+`);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

/** Every cluster's platform-components answer, as the bytes it is served as. */
function answers(snapshot: Snapshot): Map<string, string> {
  return new Map(
    [...snapshot.clusters.values()].map((c) => [
      c.id,
      JSON.stringify({ inputs: perClusterInputs(snapshot, c, 'platform-components') }),
    ]),
  );
}

const STEP_1 = ['dev-eu-1'];
const STEP_2 = ['dev-eu-2', 'dev-us-1', 'qa-eu-1', 'qa-us-1', 'uat-eu-1'];
const STEP_3 = ['prod-ap-1', 'prod-eu-1', 'prod-eu-2'];
const STEP_4 = ['prod-eu-3', 'prod-us-1', 'prod-us-2'];

describe('a rollout in the answers', () => {
  const without = base();
  const catalogChanged = (() => {
    const built = withRecord(
      without,
      'platform_components',
      KPS.id,
      applySet(KPS, { component_version: '67.5.0', oci_tag: '67.5.0' }),
      'changed',
    );
    if (!built.ok) throw new Error('fixture');
    return built.snapshot;
  })();
  const at = (released: number) => write(without, rollout({ waves: THREE_WAVES, released }));

  it("released 0: every answer is the catalog's, made of the same objects, and no cluster changed", () => {
    const zero = at(0);
    expect(answers(zero)).toEqual(answers(without));
    expect(changedClusterIds(without, zero)).toEqual([]);
    for (const c of zero.clusters.values()) {
      expect(endpointDependencies(zero, c, 'platform-components')).toEqual(
        endpointDependencies(without, c, 'platform-components'),
      );
      endpointDependencies(zero, c, 'platform-components').forEach((dep, i) =>
        expect(dep).toBe(endpointDependencies(without, c, 'platform-components')[i]),
      );
    }
  });

  it(
    'a release changes exactly the clusters of the steps it ' +
      'releases, each to the answer the catalog change gives it',
    () => {
      const zero = at(0);
      const one = write(zero, rollout({ waves: THREE_WAVES, released: 1 }));
      expect(changedClusterIds(zero, one)).toEqual(STEP_1);
      const three = write(one, rollout({ waves: THREE_WAVES, released: 3 }));
      expect(changedClusterIds(one, three)).toEqual([...STEP_2, ...STEP_3].sort());
      const served = answers(three);
      const released = answers(catalogChanged);
      const before = answers(without);
      for (const id of served.keys()) {
        const inStep = [...STEP_1, ...STEP_2, ...STEP_3].includes(id);
        expect(served.get(id), id).toBe(inStep ? released.get(id) : before.get(id));
      }
      // The diff of the release names the same clusters, with the fields `set` changes.
      const diff = diffSnapshots(one, three);
      expect(diff.clusters.map((c) => c.id)).toEqual([...STEP_2, ...STEP_3].sort());
      expect(diff.clusters[0].endpoints.map((e) => e.endpoint)).toEqual(['platform-components']);
      expect(diff.clusters[0].endpoints[0].changed.map((c) => c.fields.map((f) => f.field))).toEqual([
        ['component_version', 'source.oci_tag'],
      ]);
    },
  );

  it('an answer that does not change keeps the objects it is made of, so its encoded body is kept', () => {
    const one = at(1);
    const two = write(one, rollout({ waves: THREE_WAVES, released: 2 }));
    for (const c of two.clusters.values()) {
      const a = endpointDependencies(one, c, 'platform-components');
      const b = endpointDependencies(two, c, 'platform-components');
      const same = a.every((dep, i) => dep === b[i]);
      expect(same, c.id).toBe(!STEP_2.includes(c.id));
    }
  });

  it('rolled back to 0, every answer is the one before the rollout, made of the same objects', () => {
    const four = at(4);
    const back = write(four, rollout({ waves: THREE_WAVES, released: 0 }));
    expect(answers(back)).toEqual(answers(without));
    expect(changedClusterIds(four, back)).toEqual([...STEP_1, ...STEP_2, ...STEP_3, ...STEP_4].sort());
    for (const c of back.clusters.values()) {
      endpointDependencies(back, c, 'platform-components').forEach((dep, i) =>
        expect(dep).toBe(endpointDependencies(without, c, 'platform-components')[i]),
      );
    }
  });

  it(
    'completed (set folded into the catalog, the rollout ' +
      'deleted), no cluster in a wave changes; one in no wave does',
    () => {
      const waves = THREE_WAVES.slice(0, 2);
      const released = write(without, rollout({ waves, released: 2 }));
      const folded = withRecord(
        released,
        'platform_components',
        KPS.id,
        applySet(KPS, { component_version: '67.5.0', oci_tag: '67.5.0' }),
        'f',
      );
      if (!folded.ok) throw new Error('fixture');
      const complete = write(folded.snapshot, null);
      expect(complete.rollouts.size).toBe(0);
      expect(changedClusterIds(released, complete)).toEqual([...STEP_3, ...STEP_4].sort());
      const everyWave = write(without, rollout({ waves: THREE_WAVES, released: 4 }));
      const foldedAll = withRecord(
        everyWave,
        'platform_components',
        KPS.id,
        applySet(KPS, { component_version: '67.5.0', oci_tag: '67.5.0' }),
        'f',
      );
      if (!foldedAll.ok) throw new Error('fixture');
      expect(changedClusterIds(everyWave, write(foldedAll.snapshot, null))).toEqual([]);
    },
  );

  it('a cluster whose own pin covers every field set changes is in its step, and its answer never changes', () => {
    const list = [cluster('dev-a', 'dev'), cluster('dev-b', 'dev', [{ id: KPS.id, oci_tag: '67.3.0-hotfix' }])];
    const start = base(list);
    const tagOnly = (released: number) =>
      rollout({ set: { oci_tag: '67.5.0' }, waves: [{ name: 'dev', environments: ['dev'] }], released });
    const zero = write(start, tagOnly(0));
    const one = write(zero, tagOnly(1));
    expect(changedClusterIds(zero, one)).toEqual(['dev-a']);
    expect(JSON.parse(answers(one).get('dev-b')!).inputs[0].source.oci_tag).toBe('67.3.0-hotfix');
  });

  it(
    'a release that makes an answer too large for the ' + 'consumer is a problem of that cluster, found as if afresh',
    () => {
      const big = cluster('dev-big', 'dev');
      const answerBytes = (c: Cluster) => {
        const copy = structuredClone(c);
        return JSON.stringify({ inputs: perClusterInputs(base([copy]), copy, 'platform-components') }).length;
      };
      big.patches = { [KPS.id]: { filler: '' } };
      // 1,500 bytes short of the consumer's 900 KiB; a release of a 4,000-byte URL takes it past.
      big.patches[KPS.id].filler = 'x'.repeat(MAX_RESPONSE_BYTES - 1_500 - answerBytes(big));
      const start = base([big, cluster('dev-small', 'dev')]);
      const longUrl = (released: number) =>
        rollout({
          set: { oci_url: `oci://registry.example.com/${'p'.repeat(4_000)}` },
          waves: [{ name: 'dev', environments: ['dev'], batch: 1 }],
          released,
        });
      const zero = write(start, longUrl(0));
      const codes = (s: typeof zero) => analyzeFleet(s).problems.map((p) => [p.code, p.at.record?.id]);
      // Within 10 % of the limit: a warning before the release already.
      expect(codes(zero)).toEqual([['response_near_limit', 'dev-big']]);
      const one = write(zero, longUrl(1));
      expect(codes(one)).toEqual([['response_too_large', 'dev-big']]);
      // The counts carried on are a map layered over the revision before's: compared as a plain map.
      const plain = (fleet: FleetAnalysis) => ({ ...fleet, counts: new Map(fleet.counts) });
      expect(plain(analyzeFleet(one))).toEqual(plain(analyzeFleetAfresh(one)));
      const back = write(one, longUrl(0));
      expect(codes(back)).toEqual(codes(zero));
    },
  );
});
