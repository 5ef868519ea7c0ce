// The baseline: the revision a candidate is judged against (./judge.ts). It is the snapshot
// served now, or, for the first revision of a process, what the store offers of the one
// published before the restart: an earlier snapshot from its history (Git), or the facts it
// kept of it (SQLite). The judge reads either through one view.
import type { Problem } from './problem.ts';
import { checkRollouts } from './rollouts/rollout-rules.ts';
import type { Snapshot } from './snapshot.ts';
import { analyzeFleet } from './rules/index.ts';
import { ociUrlProblems } from './rules/oci-url.ts';
import type { InputCounts } from './rules/fleet-analysis.ts';

/** The revision a candidate is judged against: a snapshot, or the facts a store kept of one. */
export type Baseline = Snapshot | BaselineFacts;

/** What the judgement needs of the revision served before: small enough to keep in a store. */
export interface BaselineFacts {
  revision: string;
  /** Inputs per cluster id, on [platform-components, namespaces, rolebindings]. */
  inputs: Record<string, [number, number, number]>;
  /**
   * The dangling references it had, as "<cluster id>\0<field>:<referenced id>", and a rollout's
   * missing catalog entry as "<rollout id>\0rollouts/<file> component:<entry id>".
   */
  dangling: string[];
  /**
   * The credential_generation of each of its clusters whose generation is not 0 (absent in
   * facts kept before it was: the generations are then not known).
   */
  generations?: Record<string, number>;
  /** The generations of clusters deleted before it, as far as its process knew them. */
  retired?: Record<string, number>;
  /** Its catalog entries' oci_url values that are no such URL, as "<entry id>\0<problem identity>". */
  badOciUrls?: string[];
}

const factsOf = new WeakMap<Snapshot, BaselineFacts>();

/** The facts of a snapshot, to be kept in a store (SQLite): a copy of what the analysis holds. */
export function baselineFacts(snapshot: Snapshot, retired: ReadonlyMap<string, number> = new Map()): BaselineFacts {
  let facts = factsOf.get(snapshot);
  if (!facts) {
    const fleet = analyzeFleet(snapshot);
    const inputs: BaselineFacts['inputs'] = {};
    for (const [id, counts] of fleet.counts) inputs[id] = [...counts];
    const generations: Record<string, number> = {};
    for (const cluster of snapshot.clusters.values())
      if (cluster.credential_generation) generations[cluster.id] = cluster.credential_generation;
    const dangling = [...danglingOf(fleet.problems, snapshot)];
    facts = { revision: snapshot.revision, inputs, dangling, generations, badOciUrls: [...badOciUrlsOf(snapshot)] };
    factsOf.set(snapshot, facts);
  }
  return retired.size === 0 ? facts : { ...facts, retired: Object.fromEntries(retired) };
}

/** What the judgement reads of the baseline, the same whether it is a served snapshot or facts kept in a store. */
export interface BaselineView {
  countsOf(clusterId: string): InputCounts | undefined;
  total: number;
  dangling: ReadonlySet<string>;
  /** A cluster's credential_generation; undefined when it has none or it is not known. */
  generationOf: (clusterId: string) => number | undefined;
  /** The clusters themselves, for a snapshot. */
  clusters?: Snapshot['clusters'];
  /** The snapshot itself, when the baseline is one. */
  snapshot?: Snapshot;
  /** What facts kept of the clusters deleted before it. */
  retired: ReadonlyMap<string, number>;
  /** Its oci_url values that are no such URL (./rules/oci-url.ts); undefined when not known. */
  badOciUrls: ReadonlySet<string> | undefined;
}

const views = new WeakMap<object, BaselineView>();

/**
 * A served snapshot is read through its fleet analysis, which a reload has made already: on a
 * 50,000-cluster fleet, copying it into facts first took tens of milliseconds of every reload.
 */
export function baselineView(baseline: Baseline): BaselineView {
  let view = views.get(baseline);
  if (view) return view;
  if ('inputs' in baseline) {
    let total = 0;
    for (const counts of Object.values(baseline.inputs)) total += counts[0] + counts[1] + counts[2];
    const { generations } = baseline;
    view = {
      countsOf: (id) => (Object.hasOwn(baseline.inputs, id) ? baseline.inputs[id] : undefined),
      total,
      dangling: new Set(baseline.dangling),
      generationOf: (id) =>
        generations === undefined || !Object.hasOwn(baseline.inputs, id)
          ? undefined
          : Object.hasOwn(generations, id)
            ? generations[id]
            : 0,
      retired: new Map(Object.entries(baseline.retired ?? {})),
      badOciUrls: baseline.badOciUrls && new Set(baseline.badOciUrls),
    };
  } else {
    const fleet = analyzeFleet(baseline);
    view = {
      countsOf: (id) => fleet.counts.get(id),
      total: fleet.total,
      dangling: danglingOf(fleet.problems, baseline),
      generationOf: (id) => baseline.clusters.get(id)?.credential_generation,
      clusters: baseline.clusters,
      snapshot: baseline,
      retired: new Map(),
      badOciUrls: badOciUrlsOf(baseline),
    };
  }
  views.set(baseline, view);
  return view;
}

/** The dangling references of a revision: its clusters' (from their analysis) and its rollouts'. */
export function danglingOf(problems: readonly Problem[], snapshot: Snapshot): Set<string> {
  const dangling = new Set<string>();
  for (const list of [problems, checkRollouts(snapshot)]) {
    for (const p of list) if (p.code === 'dangling_reference') dangling.add(`${p.at.record!.id}\u0000${p.identity}`);
  }
  return dangling;
}

/** The keys the judge compares an oci_url problem by: "<entry id>\0<identity>" (the value). */
export function badOciUrlsOf(snapshot: Snapshot): Set<string> {
  return new Set(ociUrlProblems(snapshot).map((p) => `${p.at.record!.id}\u0000${p.identity}`));
}
