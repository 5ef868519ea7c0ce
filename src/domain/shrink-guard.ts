// The shrink guard: an empty inputs list makes a cluster's agent delete everything it rendered
// from it, so a revision that empties the lists of several clusters at once, or takes away
// more than half of the fleet's inputs, is a mistake until it says otherwise (a trailer in
// the commit, GUARD_ACCEPT_REVISION). Emptying one cluster is a decommission and passes.
// Its verdict is data: the judge (./judge.ts) turns it into problems, and a preview or a diff
// shows it as it is.
import { type Problem, problem } from './problem.ts';
import type { Snapshot } from './snapshot.ts';
import { analyzeFleet } from './rules/index.ts';
import type { InputCounts } from './rules/fleet-analysis.ts';
import type { BaselineView } from './baseline.ts';
import { compareIds } from './ids.ts';
import { LayeredMap } from './layered-map.ts';

/** Emptied lists on this many clusters at once are a mass shrink, not a decommission. */
export const GUARD_EMPTIED_CLUSTERS = 2;
/** A fleet of fewer inputs than this is too small for the share rule. */
export const GUARD_MIN_FLEET_INPUTS = 10;
export const ALLOW_SHRINK_TRAILER = 'Gitops-Allow-Shrink: yes';

const ENDPOINT_NAMES = ['platform-components', 'namespaces', 'rolebindings'];
const HOW_TO_ALLOW =
  `if that is meant, add the trailer "${ALLOW_SHRINK_TRAILER}" to the commit message, or name the ` +
  `revision in GUARD_ACCEPT_REVISION`;

/** What the guard finds of a revision against its baseline. */
export interface ShrinkGuardVerdict {
  /** refuse: it finds a mass shrink the revision does not say is meant. */
  verdict: 'pass' | 'refuse';
  /**
   * A shrink is let through: the revision says it is meant (the trailer, GUARD_ACCEPT_REVISION;
   * in a preview, a single write, which is never held to the guard, when the guard finds one).
   * What the guard finds is then a warning, and it passes.
   */
  shrink_allowed: boolean;
  /** Clusters of both revisions whose non-empty list on an endpoint becomes empty, with those endpoints. */
  emptied_clusters: { cluster: string; endpoints: string[] }[];
  /** This many emptied clusters are a mass shrink. */
  emptied_limit: number;
  /** All inputs of the fleet, every cluster and endpoint, before and after. */
  inputs_before: number;
  inputs_after: number;
  /** More than half of the fleet's inputs are gone (a fleet of at least `min_fleet_inputs`). */
  inputs_halved: boolean;
  min_fleet_inputs: number;
}

export function guardVerdict(snapshot: Snapshot, baseline: BaselineView, shrinkAllowed: boolean): ShrinkGuardVerdict {
  const emptied: ShrinkGuardVerdict['emptied_clusters'] = [];
  const before = baseline.total;
  const fleet = analyzeFleet(snapshot);
  const after = fleet.total;
  for (const [id, now] of candidates(snapshot, baseline, fleet.counts)) {
    const was = baseline.countsOf(id);
    if (!was || (now[0] > 0 && now[1] > 0 && now[2] > 0)) continue;
    const endpoints = ENDPOINT_NAMES.filter((_, i) => was[i] > 0 && now[i] === 0);
    if (endpoints.length > 0) emptied.push({ cluster: id, endpoints });
  }
  // In id order, whichever way they were found.
  emptied.sort((a, b) => compareIds(a.cluster, b.cluster));
  const halved = before >= GUARD_MIN_FLEET_INPUTS && after * 2 < before;
  const trips = emptied.length >= GUARD_EMPTIED_CLUSTERS || halved;
  return {
    verdict: trips && !shrinkAllowed ? 'refuse' : 'pass',
    shrink_allowed: shrinkAllowed,
    emptied_clusters: emptied,
    emptied_limit: GUARD_EMPTIED_CLUSTERS,
    inputs_before: before,
    inputs_after: after,
    inputs_halved: halved,
    min_fleet_inputs: GUARD_MIN_FLEET_INPUTS,
  };
}

/** The guard's findings as problems: errors, or warnings when the shrink is meant. */
export function guardProblems(guard: ShrinkGuardVerdict): Problem[] {
  const problems: Problem[] = [];
  const emptied = guard.emptied_clusters.map((e) => `${e.cluster} (${e.endpoints.join(', ')})`);
  if (emptied.length >= guard.emptied_limit) {
    const named =
      emptied.length > 20 ? `${emptied.slice(0, 20).join(', ')} and ${emptied.length - 20} more` : emptied.join(', ');
    problems.push(
      problem(
        'shrink_guard',
        { field: '' },
        `${emptied.length} clusters would get an empty list, and each one's agent would delete everything it ` +
          `rendered from it: ${named}; ${HOW_TO_ALLOW}`,
        { identity: 'emptied' },
      ),
    );
  }
  if (guard.inputs_halved) {
    problems.push(
      problem(
        'shrink_guard',
        { field: '' },
        `the fleet's inputs would drop from ${guard.inputs_before} to ${guard.inputs_after}, more than half of them ` +
          `gone; ${HOW_TO_ALLOW}`,
        {
          identity: 'half',
        },
      ),
    );
  }
  if (!guard.shrink_allowed) return problems;
  return problems.map((p) => ({ ...p, severity: 'warning', message: `${p.message} (allowed for this revision)` }));
}

/** Whether a commit message carries the trailer that allows a mass shrink. */
export function allowsShrink(message: string): boolean {
  return message.split('\n').some((line) => line.trim().toLowerCase() === ALLOW_SHRINK_TRAILER.toLowerCase());
}

/**
 * The clusters whose counts may differ from the baseline's: when the baseline is a snapshot
 * that the candidate was made from (a reload or a write: its maps layered over the baseline's)
 * and everything but the clusters is the same, only the clusters that differ; else all of
 * them. A 50,000-cluster walk was most of a reload's judgement.
 */
function candidates(
  snapshot: Snapshot,
  baseline: BaselineView,
  counts: ReadonlyMap<string, InputCounts>,
): Iterable<[string, InputCounts]> {
  const before = baseline.snapshot;
  const same =
    before !== undefined &&
    before.platform_components === snapshot.platform_components &&
    before.namespaces === snapshot.namespaces &&
    before.rolebindings === snapshot.rolebindings &&
    before.rollouts === snapshot.rollouts;
  const differing = same ? LayeredMap.differingKeys(before.clusters, snapshot.clusters) : undefined;
  if (!differing) return counts;
  const changed: [string, InputCounts][] = [];
  for (const id of [...differing].sort(compareIds)) {
    const now = counts.get(id);
    if (now) changed.push([id, now]);
  }
  return changed;
}
