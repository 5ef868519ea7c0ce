// A rollout's plan: which clusters it may change (its members), which wave each is in, and
// the steps each wave is cut into. Deterministic: the same records give the same steps on
// every replica and in every tool, whatever order the clusters come in.
//
//   members  the clusters that reference the component in platform_components, enabled or not
//            (both answers carry the entry's fields). Other clusters' answers cannot change.
//   wave k   the members whose id is in its `clusters` or whose environment is in its
//            `environments`, minus the members of waves before it.
//   steps    a wave's members sorted by id, cut in batches of `batch` (a number, or a percentage
//            of the wave rounded up, at least 1; none: the whole wave), numbered across waves
//            from 1. A wave with no member has no step.
//   `released: n` releases steps 1..n.
import { compareIds } from '../ids.ts';
import { LayeredMap } from '../layered-map.ts';
import type { Cluster } from '../records.ts';
import { goDurationMs } from './go-duration.ts';
import type { Batch, Rollout } from './rollout-record.ts';

export interface RolloutStep {
  /** Counted across waves from 1. */
  step: number;
  wave: string;
  /** The wave's index in the rollout's `waves`. */
  waveIndex: number;
  /** The first step of its wave: the one a wave with `approval` waits before. */
  opensWave: boolean;
  /** Cluster ids, sorted. */
  members: readonly string[];
  /** The wave's soak, in milliseconds (rounded up). */
  soakMs: number;
}

export interface PlannedWave {
  name: string;
  /** Its members, sorted by id. */
  members: readonly string[];
  /** The numbers of its steps, in order (none for a wave with no member). */
  steps: readonly number[];
}

export interface RolloutPlan {
  rollout: Rollout;
  /** Every cluster that references the component, sorted by id. */
  members: readonly string[];
  /** One per wave of the rollout, in its order. */
  waves: readonly PlannedWave[];
  steps: readonly RolloutStep[];
  /** A member's step number; members in no wave are not in it. */
  stepOf: ReadonlyMap<string, number>;
  /** Members in no wave, sorted: the rollout never changes them. */
  unassigned: readonly string[];
  /** `progress_deadline` in milliseconds (rounded up). */
  deadlineMs: number;
}

/** The number of clusters per step of a wave of `size` members. */
export function batchSize(batch: Batch, size: number): number {
  if (batch === null) return Math.max(size, 1);
  if (typeof batch === 'number') return batch;
  const percent = Number(batch.slice(0, -1));
  return Math.max(1, Math.ceil((percent * size) / 100));
}

/** The steps released: `released`, but never more than the plan has. */
export function releasedSteps(plan: RolloutPlan): number {
  return Math.min(plan.rollout.released, plan.steps.length);
}

/** Whether the cluster is in a released step. */
export function isReleased(plan: RolloutPlan, clusterId: string): boolean {
  const step = plan.stepOf.get(clusterId);
  return step !== undefined && step <= plan.rollout.released;
}

/** What a plan is made of besides the record: the same for every record with the same component, waves and deadline. */
type PlanCore = Omit<RolloutPlan, 'rollout'>;

const plans = new WeakMap<Rollout, { clusters: ReadonlyMap<string, Cluster>; plan: RolloutPlan }>();
/**
 * Per clusters map, the cores made over it, by what they depend on: a commit that moves
 * `released` (or `paused`, `approved`) writes a new record with the same waves, and its plan
 * is the one before, not a walk of the fleet again.
 */
const cores = new WeakMap<ReadonlyMap<string, Cluster>, Map<string, PlanCore>>();
const MAX_CORES_PER_MAP = 32;

/**
 * The plan of `rollout` over `clusters`; made once per (component, waves, deadline) and clusters
 * map, and kept from the clusters map before when a write of clusters left its membership alone.
 */
export function planRollout(rollout: Rollout, clusters: ReadonlyMap<string, Cluster>): RolloutPlan {
  const kept = plans.get(rollout);
  if (kept !== undefined && kept.clusters === clusters) return kept.plan;
  let byKey = cores.get(clusters);
  if (byKey === undefined) cores.set(clusters, (byKey = new Map<string, PlanCore>()));
  const key = JSON.stringify([rollout.component, rollout.waves, rollout.progress_deadline]);
  let core = byKey.get(key);
  if (core === undefined && kept !== undefined && sameMembership(kept.clusters, clusters, rollout.component)) {
    const { rollout: _record, ...before } = kept.plan;
    byKey.set(key, (core = before));
  }
  if (core === undefined) {
    // Rollouts edited again and again over one clusters map leave cores behind: keep the newest few.
    if (byKey.size >= MAX_CORES_PER_MAP) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, (core = makeCore(rollout, clusters)));
  }
  const plan: RolloutPlan = { rollout, ...core };
  plans.set(rollout, { clusters, plan });
  return plan;
}

const uses = (cluster: Cluster | undefined, component: string): boolean =>
  cluster !== undefined && cluster.platform_components.some((ref) => ref.id === component);

/**
 * Whether the clusters that differ between two maps made one from the other (a write of some
 * clusters) leave the plan as it was: each is a member in both or in neither, in the same
 * environment. Only the layers of the maps are looked at, not the fleet.
 */
function sameMembership(
  before: ReadonlyMap<string, Cluster>,
  after: ReadonlyMap<string, Cluster>,
  component: string,
): boolean {
  const differing = LayeredMap.differingKeys(before, after);
  if (differing === undefined) return false;
  for (const id of differing) {
    const a = before.get(id);
    const b = after.get(id);
    const member = uses(a, component);
    if (member !== uses(b, component) || (member && a!.environment !== b!.environment)) return false;
  }
  return true;
}

function makeCore(rollout: Rollout, clusters: ReadonlyMap<string, Cluster>): PlanCore {
  const members: Cluster[] = [];
  for (const cluster of clusters.values()) {
    if (uses(cluster, rollout.component)) members.push(cluster);
  }
  members.sort((a, b) => compareIds(a.id, b.id));

  const selectors = rollout.waves.map((w) => ({
    ids: new Set(w.clusters),
    environments: new Set<string>(w.environments),
  }));
  const waveMembers: string[][] = rollout.waves.map(() => []);
  const unassigned: string[] = [];
  for (const cluster of members) {
    const k = selectors.findIndex((s) => s.ids.has(cluster.id) || s.environments.has(cluster.environment));
    if (k === -1) unassigned.push(cluster.id);
    else waveMembers[k].push(cluster.id);
  }

  const steps: RolloutStep[] = [];
  const stepOf = new Map<string, number>();
  const waves = rollout.waves.map((wave, waveIndex): PlannedWave => {
    const ids = waveMembers[waveIndex];
    const size = batchSize(wave.batch, ids.length);
    const soakMs = goDurationMs(wave.soak);
    const numbers: number[] = [];
    for (let start = 0; start < ids.length; start += size) {
      const step = steps.length + 1;
      const batch = ids.slice(start, start + size);
      for (const id of batch) stepOf.set(id, step);
      steps.push({ step, wave: wave.name, waveIndex, opensWave: start === 0, members: batch, soakMs });
      numbers.push(step);
    }
    return { name: wave.name, members: ids, steps: numbers };
  });

  return {
    members: members.map((c) => c.id),
    waves,
    steps,
    stepOf,
    unassigned,
    deadlineMs: goDurationMs(rollout.progress_deadline),
  };
}
