// What the rules say of every cluster of a revision, gathered in one pass: each cluster's
// problems and input counts, the fleet's total, how many clusters use each catalog entry, and
// the size of the fleet listing. The judge, the shrink guard, the baseline and the catalog
// and listing rules all read it, so a revision costs one walk over its clusters — and a
// revision built from the one analysed before it, with the same definitions, costs only the
// clusters that changed (the fleet's totals are adjusted, not summed again).
import type { Problem } from '../problem.ts';
import type { Cluster } from '../records.ts';
import { membersServedOtherwise } from '../rollouts/rollout-view.ts';
import { compareIds, type Snapshot } from '../snapshot.ts';
import { runSteps, type Steps } from '../steps.ts';
import { analyzeCluster } from './cluster-analysis.ts';

export type InputCounts = readonly [number, number, number];

export interface FleetAnalysis {
  /** Every cluster's problems, in cluster id order. */
  problems: readonly Problem[];
  /** Inputs per cluster id, on [platform-components, namespaces, rolebindings]. */
  counts: ReadonlyMap<string, InputCounts>;
  /** All the fleet's inputs. */
  total: number;
  /** How many references to each catalog id the clusters hold. */
  componentUses: ReadonlyMap<string, number>;
  /** The bytes of the unfiltered fleet listing (GET /api/v2/gitops/clusters). */
  listBytes: number;
}

interface Analysed {
  snapshot: Snapshot;
  fleet: FleetAnalysis;
  /** The clusters that have problems, and theirs. */
  withProblems: ReadonlyMap<string, readonly Problem[]>;
}

const analyses = new WeakMap<Snapshot, Analysed>();
/** The revision analysed last: the next one is usually built from it. */
let last: Analysed | undefined;

export function analyzeFleet(snapshot: Snapshot): FleetAnalysis {
  return runSteps(analyzeFleetInSteps(snapshot));
}

/** How many clusters are analysed, or looked at, between two pauses of analyzeFleetInSteps. */
const ANALYSED_PER_STEP = 20;
const LOOKED_PER_STEP = 2000;

/**
 * analyzeFleet in steps, for a caller that lets requests in between (a change set of 1,000
 * clusters judged while the service answers polls). Two of them may run at once: each works
 * from the analysis it found when it began. `from`, when given, is the snapshot this one was
 * built from: its analysis is carried on rather than the one made last (at start the history's
 * older revisions are analysed after the one served, and the first reload would otherwise
 * analyse 50,000 clusters afresh).
 */
export function* analyzeFleetInSteps(snapshot: Snapshot, from?: Snapshot): Steps<FleetAnalysis> {
  const known = analyses.get(snapshot);
  if (known) return known.fleet;
  const candidate = (from && analyses.get(from)) ?? last;
  const base = candidate && sameDefinitions(candidate.snapshot, snapshot) ? candidate : undefined;
  const analysed = base ? yield* update(base, snapshot) : yield* build(snapshot);
  analyses.set(snapshot, analysed);
  last = analysed;
  return analysed.fleet;
}

/** The same analysis, made from scratch (no memory of earlier revisions): what the incremental one must equal. */
export function analyzeFleetAfresh(snapshot: Snapshot): FleetAnalysis {
  return runSteps(build(snapshot)).fleet;
}

function sameDefinitions(a: Snapshot, b: Snapshot): boolean {
  return (
    a.platform_components === b.platform_components &&
    a.namespaces === b.namespaces &&
    a.rolebindings === b.rolebindings
  );
}

const EMPTY_LIST_BYTES = '{"inputs":[]}'.length;

/** The running sums of an analysis, as clusters are added to it or dropped from it. */
class Tally {
  readonly counts: Map<string, InputCounts>;
  readonly uses: Map<string, number>;
  readonly withProblems: Map<string, readonly Problem[]>;
  total: number;
  listBytes: number;

  constructor(from?: Analysed) {
    this.counts = new Map();
    this.uses = new Map(from?.fleet.componentUses);
    this.withProblems = new Map(from?.withProblems);
    this.total = from?.fleet.total ?? 0;
    this.listBytes = from?.fleet.listBytes ?? EMPTY_LIST_BYTES;
  }

  /** A tally carried on from `from`: its counts, one per cluster, copied in steps (50,000 took some 30 ms at once). */
  static *from(from: Analysed): Steps<Tally> {
    const tally = new Tally(from);
    for (const [id, counts] of from.fleet.counts) {
      tally.counts.set(id, counts);
      if (tally.counts.size % LOOKED_PER_STEP === 0) yield;
    }
    return tally;
  }

  add(snapshot: Snapshot, cluster: Cluster): void {
    const analysis = analyzeCluster(snapshot, cluster);
    this.counts.set(cluster.id, analysis.counts);
    this.total += analysis.counts[0] + analysis.counts[1] + analysis.counts[2];
    if (analysis.problems.length > 0) this.withProblems.set(cluster.id, analysis.problems);
    for (const ref of cluster.platform_components) this.uses.set(ref.id, (this.uses.get(ref.id) ?? 0) + 1);
    this.listBytes += summaryBytes(cluster);
  }

  drop(cluster: Cluster): void {
    const was = this.counts.get(cluster.id)!;
    this.total -= was[0] + was[1] + was[2];
    this.counts.delete(cluster.id);
    this.withProblems.delete(cluster.id);
    for (const ref of cluster.platform_components) this.uses.set(ref.id, this.uses.get(ref.id)! - 1);
    this.listBytes -= summaryBytes(cluster);
  }
}

function* build(snapshot: Snapshot): Steps<Analysed> {
  const tally = new Tally();
  let analysed = 0;
  for (const cluster of snapshot.clusters.values()) {
    tally.add(snapshot, cluster);
    if (++analysed % ANALYSED_PER_STEP === 0) yield;
  }
  // Separators between the listing's items.
  tally.listBytes += Math.max(0, snapshot.clusters.size - 1);
  return finish(snapshot, tally);
}

/** The analysis of `snapshot` from the one of `base`: only the clusters added, removed or changed are looked at. */
function* update(base: Analysed, snapshot: Snapshot): Steps<Analysed> {
  const before = base.snapshot.clusters;
  const tally = yield* Tally.from(base);
  yield;
  let looked = 0;
  let analysed = 0;
  for (const cluster of snapshot.clusters.values()) {
    if (++looked % LOOKED_PER_STEP === 0) yield;
    const previous = before.get(cluster.id);
    if (previous === cluster) continue;
    if (previous) tally.drop(previous);
    tally.add(snapshot, cluster);
    if (++analysed % ANALYSED_PER_STEP === 0) yield;
  }
  // A change of rollouts serves their members other catalog entries: their sizes are looked at again.
  if (base.snapshot.rollouts !== snapshot.rollouts) {
    for (const id of membersServedOtherwise(base.snapshot, snapshot)) {
      const cluster = snapshot.clusters.get(id);
      if (cluster === undefined || before.get(id) !== cluster) continue;
      tally.drop(cluster);
      tally.add(snapshot, cluster);
    }
  }
  // Every cluster of the base is still counted: more counted than there are means some are gone.
  if (tally.counts.size > snapshot.clusters.size) {
    for (const cluster of before.values()) if (!snapshot.clusters.has(cluster.id)) tally.drop(cluster);
  }
  // Separators between the listing's items follow the number of clusters.
  tally.listBytes += Math.max(0, snapshot.clusters.size - 1) - Math.max(0, before.size - 1);
  return finish(snapshot, tally);
}

function finish(snapshot: Snapshot, parts: Tally): Analysed {
  const problems: Problem[] = [];
  for (const id of [...parts.withProblems.keys()].sort(compareIds)) problems.push(...parts.withProblems.get(id)!);
  return {
    snapshot,
    withProblems: parts.withProblems,
    fleet: {
      problems,
      counts: parts.counts,
      total: parts.total,
      componentUses: parts.uses,
      listBytes: parts.listBytes,
    },
  };
}

const summarySizes = new WeakMap<Cluster, number>();

/** The bytes of a cluster's item in the fleet listing. */
function summaryBytes(cluster: Cluster): number {
  let size = summarySizes.get(cluster);
  if (size === undefined) {
    const { id, cluster_name, cluster_dns, environment } = cluster;
    size = Buffer.byteLength(JSON.stringify({ id, cluster_name, cluster_dns, environment }));
    summarySizes.set(cluster, size);
  }
  return size;
}
