// The rollout view of a revision (src/domain/rollouts/rollout-view.ts): which entry each
// cluster's answer is built from, who is pinned, and that the objects stay the same from one
// revision to the next while nothing they are made of changed (the encoded-body cache compares
// an answer's dependencies by identity: domain/projections/index.ts, endpointDependencies).
import { describe, expect, it } from 'vitest';
import { LayeredMap } from '../../../src/domain/layered-map.ts';
import type { Cluster, PlatformComponent } from '../../../src/domain/records.ts';
import {
  effectiveComponent,
  effectiveEntry,
  isPinned,
  releasedMembers,
  rolloutView,
  type RolloutView,
} from '../../../src/domain/rollouts/rollout-view.ts';
import type { Rollout } from '../../../src/domain/rollouts/rollout-record.ts';
import {
  catalogMap,
  cluster,
  clustersMap,
  fourEnvironments,
  KPS,
  rollout,
  THREE_WAVES,
} from '../../fixtures/rollout-fleet.ts';

const PODINFO: PlatformComponent = Object.freeze({
  id: 'podinfo',
  component_path: 'podinfo',
  component_version: '6.7.1',
  oci_url: 'oci://ghcr.io/x',
  oci_tag: '6.7.1',
  cluster_env_enabled: false,
  depends_on: [],
});

const sources = (rollouts: Rollout[], list: Cluster[] = fourEnvironments(), catalog = catalogMap(KPS, PODINFO)) => ({
  clusters: clustersMap(list),
  platform_components: catalog,
  rollouts: new Map(rollouts.map((r) => [r.id, r])),
});

/** What the platform-components answer takes from the entry, the cluster's pins winning as they do. */
function served(view: RolloutView, c: Cluster, entry: PlatformComponent = KPS) {
  const ref = c.platform_components.find((r) => r.id === entry.id)!;
  const e = effectiveComponent(view, c, ref, entry);
  return {
    component_path: ref.component_path ?? e.component_path,
    component_version: e.component_version,
    oci_url: e.oci_url,
    oci_tag: ref.oci_tag ?? e.oci_tag,
  };
}

describe('the entry each cluster is served', () => {
  const list = fourEnvironments();
  const view = rolloutView(sources([rollout({ waves: THREE_WAVES, released: 2 })], list));
  const byId = new Map(list.map((c) => [c.id, c]));

  it('is the entry with set applied in a released step, the entry as it is everywhere else', () => {
    expect(served(view, byId.get('dev-eu-1')!)).toMatchObject({ component_version: '67.5.0', oci_tag: '67.5.0' });
    expect(served(view, byId.get('qa-us-1')!)).toMatchObject({ component_version: '67.5.0', oci_tag: '67.5.0' });
    expect(served(view, byId.get('prod-eu-1')!)).toMatchObject({ component_version: '67.4.0', oci_tag: '67.4.0' });
    const c = byId.get('prod-eu-1')!;
    expect(effectiveComponent(view, c, c.platform_components[0], KPS)).toBe(KPS);
  });

  it('is the entry as it is for a component no rollout changes, and for every cluster without rollouts', () => {
    const c = cluster('x', 'dev', [KPS.id, 'podinfo']);
    expect(effectiveComponent(view, c, c.platform_components[1], PODINFO)).toBe(PODINFO);
    const none = rolloutView(sources([]));
    expect(none.byComponent.size).toBe(0);
    expect(effectiveComponent(none, c, c.platform_components[0], KPS)).toBe(KPS);
  });

  it('is the entry as it is when the rollout is at 0', () => {
    const atZero = rolloutView(sources([rollout({ waves: THREE_WAVES })], list));
    for (const c of list.filter((x) => x.id !== 'dev-no-kps')) {
      expect(served(atZero, c)).toMatchObject({ oci_tag: '67.4.0' });
    }
  });

  it('lists the released members in step order', () => {
    expect(releasedMembers(view.byComponent.get(KPS.id)!)).toEqual([
      'dev-eu-1',
      'dev-eu-2',
      'dev-us-1',
      'qa-eu-1',
      'qa-us-1',
      'uat-eu-1',
    ]);
  });
});

describe('pinned clusters', () => {
  const pinnedTag = cluster('dev-a', 'dev', [{ id: KPS.id, oci_tag: '67.3.9' }]);
  const pinnedBoth = cluster('dev-b', 'dev', [{ id: KPS.id, oci_tag: '67.3.9', component_path: 'kps-fork' }]);
  const plain = cluster('dev-c', 'dev');
  const list = [pinnedTag, pinnedBoth, plain];
  const all = [{ name: 'dev', environments: ['dev'] }];
  const viewOf = (set: object) => rolloutView(sources([rollout({ set, waves: all, released: 1 })], list));

  it('are those whose pins cover every field set changes: their answer stays as it was', () => {
    const view = viewOf({ oci_tag: '67.5.0' });
    expect([...view.byComponent.get(KPS.id)!.pinned]).toEqual(['dev-a', 'dev-b']);
    const before = rolloutView(sources([], list));
    expect(served(view, pinnedTag)).toEqual(served(before, pinnedTag));
    expect(served(view, plain)).not.toEqual(served(before, plain));
  });

  it('count a field set to the catalog value as unchanged', () => {
    const view = viewOf({ oci_tag: '67.5.0', component_version: '67.4.0' });
    expect([...view.byComponent.get(KPS.id)!.pinned]).toEqual(['dev-a', 'dev-b']);
  });

  it('are none when set changes a field a cluster cannot pin, or one their pins leave open', () => {
    const pinnedBy = (set: object) => [...viewOf(set).byComponent.get(KPS.id)!.pinned];
    expect(pinnedBy({ oci_tag: '67.5.0', component_version: '67.5.0' })).toEqual([]);
    expect(pinnedBy({ oci_tag: '67.5.0', component_path: 'kps' })).toEqual(['dev-b']);
  });

  it('is decided field by field', () => {
    const ref = { id: KPS.id, enabled: true, oci_tag: 'x', component_path: null };
    expect(isPinned(ref, ['oci_tag'])).toBe(true);
    expect(isPinned(ref, ['oci_tag', 'component_path'])).toBe(false);
    expect(isPinned(ref, ['component_version'])).toBe(false);
  });
});

describe('the same objects from one revision to the next', () => {
  it('the effective entry while the entry and the set are the same, whatever else changed', () => {
    const list = fourEnvironments();
    const first = rolloutView(sources([rollout({ waves: THREE_WAVES, released: 1 })], list));
    // The next revision: the rollout record written again (released moved), another clusters map.
    const next = rolloutView(sources([rollout({ waves: THREE_WAVES, released: 2 })], [...list]));
    const a = first.byComponent.get(KPS.id)!;
    const b = next.byComponent.get(KPS.id)!;
    expect(b).not.toBe(a);
    expect(b.effective).toBe(a.effective);
    expect(Object.isFrozen(a.effective)).toBe(true);
    expect(Object.isFrozen(a.effective.depends_on)).toBe(true);
    // The set written in another key order is the same set.
    expect(effectiveEntry(KPS, { oci_tag: '67.5.0', component_version: '67.5.0' })).toBe(a.effective);
  });

  it('the plan and the pinned members on a release commit: nothing is walked again', () => {
    const list = [...fourEnvironments(), cluster('dev-pinned', 'dev', [{ id: KPS.id, oci_tag: 'hotfix' }])];
    const clusters = clustersMap(list);
    const at = (released: number) => {
      const r = rollout({ set: { oci_tag: '67.5.0' }, waves: THREE_WAVES, released });
      const view = rolloutView({ clusters, platform_components: catalogMap(KPS), rollouts: new Map([[r.id, r]]) });
      return view.byComponent.get(KPS.id)!;
    };
    const one = at(1);
    const two = at(2);
    expect(two.rollout.released).toBe(2);
    expect(two.plan.steps).toBe(one.plan.steps);
    expect([...two.pinned]).toEqual(['dev-pinned']);
    expect(two.pinned).toBe(one.pinned);
  });

  it("the pinned members follow a write of a member's pin, looking only at the clusters written", () => {
    const clusters = clustersMap(fourEnvironments());
    const r = rollout({ set: { oci_tag: '67.5.0' }, waves: THREE_WAVES, released: 1 });
    const servingOver = (map: ReadonlyMap<string, Cluster>) =>
      rolloutView({
        clusters: map,
        platform_components: catalogMap(KPS),
        rollouts: new Map([[r.id, r]]),
      }).byComponent.get(KPS.id)!;
    const before = servingOver(clusters);
    expect(before.pinned.size).toBe(0);
    const pinned = LayeredMap.with(clusters, 'qa-eu-1', cluster('qa-eu-1', 'qa', [{ id: KPS.id, oci_tag: 'hotfix' }]));
    const after = servingOver(pinned);
    expect(after.plan.steps).toBe(before.plan.steps);
    expect([...after.pinned]).toEqual(['qa-eu-1']);
    const unpinned = servingOver(LayeredMap.with(pinned, 'qa-eu-1', cluster('qa-eu-1', 'qa')));
    expect([...unpinned.pinned]).toEqual([]);
  });

  it('a new effective entry when the catalog entry or the set changes', () => {
    const a = effectiveEntry(KPS, { oci_tag: '67.5.0' });
    expect(effectiveEntry({ ...KPS }, { oci_tag: '67.5.0' })).not.toBe(a);
    expect(effectiveEntry(KPS, { oci_tag: '67.5.1' })).not.toBe(a);
    expect(effectiveEntry(KPS, { oci_tag: '67.5.0' })).toBe(a);
  });

  it('the view itself while the rollouts, clusters and catalog maps are the same', () => {
    const s = sources([rollout({ waves: THREE_WAVES, released: 1 })]);
    const view = rolloutView(s);
    expect(rolloutView({ ...s })).toBe(view);
    const withOtherCatalog = rolloutView({ ...s, platform_components: new Map(s.platform_components) });
    expect(withOtherCatalog).not.toBe(view);
    // The rollout's part is made of the same records (the rollout, the clusters map, the entry): kept.
    expect(withOtherCatalog.byComponent.get(KPS.id)).toBe(view.byComponent.get(KPS.id));
    const withOtherClusters = rolloutView({ ...s, clusters: new Map(s.clusters) });
    expect(withOtherClusters).not.toBe(view);
    expect(withOtherClusters.byComponent.get(KPS.id)).not.toBe(view.byComponent.get(KPS.id));
  });

  it('both views of two revisions that share their rollouts, asked for in turn (a walk comparing them)', () => {
    const before = sources([rollout({ waves: THREE_WAVES, released: 1 })]);
    const after = { ...before, platform_components: new Map(before.platform_components) };
    const [a, b] = [rolloutView(before), rolloutView(after)];
    expect(b).not.toBe(a);
    for (let i = 0; i < 3; i++) {
      expect(rolloutView(before)).toBe(a);
      expect(rolloutView(after)).toBe(b);
    }
  });
});

describe('a revision the rules refuse', () => {
  it('serves nothing of a rollout whose catalog entry is missing', () => {
    const r = rollout({ waves: THREE_WAVES, released: 1 });
    const view = rolloutView(sources([r], fourEnvironments(), catalogMap(PODINFO)));
    expect(view.byComponent.size).toBe(0);
  });

  it('serves the first by id of two rollouts of one component', () => {
    const b = rollout({ id: 'b', waves: THREE_WAVES, released: 1, set: { oci_tag: 'b' } });
    const a = rollout({ id: 'a', waves: THREE_WAVES, released: 1, set: { oci_tag: 'a' } });
    expect(rolloutView(sources([b, a])).byComponent.get(KPS.id)!.rollout.id).toBe('a');
  });
});
