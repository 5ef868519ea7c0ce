// The baseline: the revision a candidate is judged against (./judge.ts). It is the snapshot
// served now, or, for the first revision of a process, what the store offers of the one
// published before the restart: an earlier snapshot from its history (Git), or the facts it
// kept of it (SQLite). The judge reads either through one view.
import type { Problem } from './problem.ts';
import { checkRollouts } from './rollouts/rollout-rules.ts';
import type { Snapshot } from './snapshot.ts';
import { analyzeFleet } from './rules/index.ts';
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
}

const factsOf = new WeakMap<Snapshot, BaselineFacts>();

/** The facts of a snapshot, to be kept in a store (SQLite): a copy of what the analysis holds. */
export function baselineFacts(snapshot: Snapshot): BaselineFacts {
  let facts = factsOf.get(snapshot);
  if (facts) return facts;
  const fleet = analyzeFleet(snapshot);
  const inputs: BaselineFacts['inputs'] = {};
  for (const [id, counts] of fleet.counts) inputs[id] = [...counts];
  facts = { revision: snapshot.revision, inputs, dangling: [...danglingOf(fleet.problems, snapshot)] };
  factsOf.set(snapshot, facts);
  return facts;
}

/** What the judgement reads of the baseline, the same whether it is a served snapshot or facts kept in a store. */
export interface BaselineView {
  countsOf(clusterId: string): InputCounts | undefined;
  total: number;
  dangling: ReadonlySet<string>;
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
    view = { countsOf: (id) => (Object.hasOwn(baseline.inputs, id) ? baseline.inputs[id] : undefined), total, dangling: new Set(baseline.dangling) };
  } else {
    const fleet = analyzeFleet(baseline);
    view = { countsOf: (id) => fleet.counts.get(id), total: fleet.total, dangling: danglingOf(fleet.problems, baseline) };
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
