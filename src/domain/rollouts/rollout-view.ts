// What the rollouts of a revision do to the answers: per component, its rollout's plan, the
// catalog entry with `set` applied, and which members are pinned. Derived once per revision
// and kept (a poll computes nothing new): the view per rollouts map, each rollout's part per
// (rollout record, clusters map, catalog entry), and the effective entry per (entry, set), so
// that an answer's dependencies stay the same objects from one revision to the next while
// nothing they are made of changed, and the encoded bodies made from them are reused.
import type { Cluster, ComponentRef, PlatformComponent } from '../records.ts';
import { compareIds } from '../ids.ts';
import { LayeredMap } from '../layered-map.ts';
import { planRollout, type RolloutPlan } from './rollout-plan.ts';
import { applySet, changedFields, type Rollout, type RolloutSet, type SetField, setKey } from './rollout-record.ts';

/** The records the view is made of: a snapshot's clusters and catalog, and its rollouts. */
export interface RolloutSources {
  readonly clusters: ReadonlyMap<string, Cluster>;
  readonly platform_components: ReadonlyMap<string, PlatformComponent>;
  readonly rollouts: ReadonlyMap<string, Rollout>;
}

/** One rollout as it is served. */
export interface RolloutServing {
  rollout: Rollout;
  plan: RolloutPlan;
  /** The catalog entry as it is. */
  entry: PlatformComponent;
  /** The entry with `set` applied: frozen, and the same object while the entry and the set stay the same. */
  effective: PlatformComponent;
  /** The fields `set` gives another value than the entry's. */
  changed: readonly SetField[];
  /** Members whose own pins cover every changed field: the rollout does not change their answer. */
  pinned: ReadonlySet<string>;
}

export interface RolloutView {
  /** Component id → its rollout, for each rollout whose catalog entry exists. */
  readonly byComponent: ReadonlyMap<string, RolloutServing>;
}

const EMPTY_VIEW: RolloutView = Object.freeze({ byComponent: new Map<string, RolloutServing>() });

/**
 * By rollouts map, the views made of it lately, newest first: a walk that compares two
 * revisions sharing their rollouts (a catalog change) asks for both views in turn, which a
 * single remembered view would make again on every call. Two, no more: each keeps its
 * revision's clusters and catalog maps.
 */
const views = new WeakMap<object, { clusters: object; catalog: object; view: RolloutView }[]>();
const VIEWS_PER_ROLLOUTS = 2;
const servings = new WeakMap<Rollout, { clusters: object; entry: PlatformComponent; serving: RolloutServing }>();
/** Per catalog entry, its effective forms by set; a few at most (one per set it had while the same object). */
const effectives = new WeakMap<PlatformComponent, Map<string, PlatformComponent>>();
const MAX_SETS_PER_ENTRY = 8;

/** The view of a revision's rollouts; made once per (rollouts, clusters, catalog) maps. */
export function rolloutView(sources: RolloutSources): RolloutView {
  if (sources.rollouts.size === 0) return EMPTY_VIEW;
  const kept = views.get(sources.rollouts) ?? [];
  const found = kept.find((v) => v.clusters === sources.clusters && v.catalog === sources.platform_components);
  if (found) return found.view;
  const byComponent = new Map<string, RolloutServing>();
  // Two rollouts of one component is an error (rollout-rules.ts); the first by id is the one served meanwhile.
  const ids = [...sources.rollouts.keys()].sort(compareIds);
  for (const id of ids) {
    const rollout = sources.rollouts.get(id)!;
    if (byComponent.has(rollout.component)) continue;
    const entry = sources.platform_components.get(rollout.component);
    if (entry === undefined) continue;
    byComponent.set(rollout.component, rolloutServing(rollout, sources.clusters, entry));
  }
  const view: RolloutView = Object.freeze({ byComponent });
  kept.unshift({ clusters: sources.clusters, catalog: sources.platform_components, view });
  if (kept.length > VIEWS_PER_ROLLOUTS) kept.pop();
  views.set(sources.rollouts, kept);
  return view;
}

/** One rollout as served over `clusters` with its catalog `entry`; made once per (record, clusters, entry). */
export function rolloutServing(
  rollout: Rollout,
  clusters: ReadonlyMap<string, Cluster>,
  entry: PlatformComponent,
): RolloutServing {
  const kept = servings.get(rollout);
  if (kept && kept.clusters === clusters && kept.entry === entry) return kept.serving;
  const plan = planRollout(rollout, clusters);
  const changed = changedFields(rollout.set, entry);
  const serving: RolloutServing = Object.freeze({
    rollout,
    plan,
    entry,
    effective: effectiveEntry(entry, rollout.set),
    changed,
    pinned: pinnedMembers(plan, clusters, rollout.component, changed),
  });
  servings.set(rollout, { clusters, entry, serving });
  return serving;
}

/** The entry with `set` applied, frozen; the same object for the same entry object and an equal set. */
export function effectiveEntry(entry: PlatformComponent, set: RolloutSet): PlatformComponent {
  let bySet = effectives.get(entry);
  if (bySet === undefined) effectives.set(entry, (bySet = new Map<string, PlatformComponent>()));
  const key = setKey(set);
  const kept = bySet.get(key);
  if (kept !== undefined) return kept;
  const applied = applySet(entry, set);
  Object.freeze(applied.depends_on);
  const frozen = Object.freeze(applied);
  if (bySet.size >= MAX_SETS_PER_ENTRY) bySet.delete(bySet.keys().next().value!);
  bySet.set(key, frozen);
  return frozen;
}

/**
 * The catalog entry a cluster's answer for `ref` is built from: the entry with `set` applied
 * when the cluster is in a released step of a rollout of the component, else the entry as it
 * is. The cluster's own pins still win field by field (projections/platform-components.ts).
 */
export function effectiveComponent(
  view: RolloutView,
  cluster: Cluster,
  ref: ComponentRef,
  entry: PlatformComponent,
): PlatformComponent {
  const serving = view.byComponent.get(ref.id);
  if (serving === undefined) return entry;
  const step = serving.plan.stepOf.get(cluster.id);
  if (step === undefined || step > serving.rollout.released) return entry;
  return serving.entry === entry ? serving.effective : effectiveEntry(entry, serving.rollout.set);
}

/**
 * The members of every rollout that is served otherwise in `after` than in `before` (another
 * record, catalog entry or clusters map): the only clusters whose answers a change of
 * rollouts alone can move. Each member once, in no particular order.
 */
export function membersServedOtherwise(before: RolloutSources, after: RolloutSources): Set<string> {
  const a = rolloutView(before).byComponent;
  const b = rolloutView(after).byComponent;
  const members = new Set<string>();
  for (const component of new Set([...a.keys(), ...b.keys()])) {
    const was = a.get(component);
    const is = b.get(component);
    if (was === is) continue;
    if (was !== undefined && is !== undefined && was.effective === is.effective && was.entry === is.entry) {
      if (was.plan.steps === is.plan.steps) {
        // The same steps: only `released` moved, and only the steps between moved with it.
        const [from, to] = [was.rollout.released, is.rollout.released].sort((x, y) => x - y) as [number, number];
        for (const step of is.plan.steps.slice(from, to)) for (const id of step.members) members.add(id);
      } else {
        // Planned over other clusters (a cluster written moved the steps): the members released on one side only.
        for (const id of new Set([...was.plan.members, ...is.plan.members]))
          if (servedTheSet(was, id) !== servedTheSet(is, id)) members.add(id);
      }
      continue;
    }
    for (const id of was?.plan.members ?? []) members.add(id);
    for (const id of is?.plan.members ?? []) members.add(id);
  }
  return members;
}

/** Whether the reference's own pins cover every field the rollout changes (then it changes nothing for it). */
export function isPinned(ref: ComponentRef, changed: readonly SetField[]): boolean {
  return changed.every((field) =>
    field === 'oci_tag' ? ref.oci_tag != null : field === 'component_path' && ref.component_path != null,
  );
}

/** The ids of the members in released steps, in step order. */
export function releasedMembers(serving: RolloutServing): string[] {
  return serving.plan.steps.slice(0, serving.rollout.released).flatMap((s) => s.members);
}

/**
 * Pinned members by the plan's members (the same array while the membership and the waves are
 * the same: a release commit, a write of other clusters) and the fields changed, with the
 * clusters map they were found in: a release walks no member again, a write of clusters looks
 * at the clusters written.
 */
const pinnedKept = new WeakMap<
  readonly string[],
  { changed: string; clusters: ReadonlyMap<string, Cluster>; pinned: ReadonlySet<string> }
>();
const NONE: ReadonlySet<string> = new Set();

function pinnedMembers(
  plan: RolloutPlan,
  clusters: ReadonlyMap<string, Cluster>,
  component: string,
  changed: readonly SetField[],
): ReadonlySet<string> {
  // Only tags and paths can be pinned on a cluster: a changed version or URL reaches every member.
  if (changed.some((f) => f !== 'oci_tag' && f !== 'component_path')) return NONE;
  const key = changed.join(',');
  const kept = pinnedKept.get(plan.members);
  if (kept !== undefined && kept.changed === key && kept.clusters === clusters) return kept.pinned;
  const differing = kept?.changed === key ? LayeredMap.differingKeys(kept.clusters, clusters) : undefined;
  const pinned = differing === undefined ? new Set<string>() : new Set(kept!.pinned);
  for (const id of differing ?? plan.members) {
    const ref = clusters.get(id)?.platform_components.find((r) => r.id === component);
    if (ref !== undefined && isPinned(ref, changed)) pinned.add(id);
    else pinned.delete(id);
  }
  pinnedKept.set(plan.members, { changed: key, clusters, pinned });
  return pinned;
}

/** Whether the member is in a released step of the rollout: served the entry with its set. */
function servedTheSet(serving: RolloutServing, id: string): boolean {
  const step = serving.plan.stepOf.get(id);
  return step !== undefined && step <= serving.rollout.released;
}
