// Whether a loaded revision may be served: the candidate is judged against the revision
// served before it (the baseline). Every backend's load path, `validate` and `diff` go
// through this one function, so a revision is published by the same rules whatever it was
// read from. It is published when it has:
//   1. no error problem (every rule of ./rules/);
//   2. no new dangling reference: one the baseline already had is a warning and is skipped
//      (with no baseline, every one is a warning, or every one an error when asked);
//   3. the shrink guard: neither 2 or more clusters' lists emptied, nor more than half of
//      the fleet's inputs gone (when that is 10 or more), unless the shrink is intended.
// Why: docs/decisions/0001-judge-before-publishing.md and 0002-shrink-guard.md.
import { isError, type Problem, problem, recordName } from './problem.ts';
import type { Snapshot } from './snapshot.ts';
import { analyzeFleet, checkRevision } from './rules/index.ts';
import { type Baseline, type BaselineView, baselineView } from './baseline.ts';

/** A revision built into a snapshot, with the problems found reading and building it: what the judge decides on. */
export interface Candidate {
  /** The revision's records; when `problems` holds errors, the usable part of them. */
  snapshot: Snapshot;
  /** Problems found while it was read and assembled (files, schema, duplicates). */
  problems: Problem[];
  /**
   * A mass shrink is meant: the newest commit carries `Gitops-Allow-Shrink: yes`, or the
   * revision is named in GUARD_ACCEPT_REVISION.
   */
  allowShrink?: boolean;
}

/** How a revision is judged when there is no baseline. */
export interface JudgeOptions {
  /**
   * What a dangling reference is without a baseline. The server's first revision (a new repo,
   * a seed) has no history that could say which references are new, and the contract skips
   * them: `warning`, the default. A check of a tree in CI without a base (`validate` without
   * `--base`) must fail on a deleted folder or a typo: `error`.
   */
  danglingWithoutBaseline?: 'warning' | 'error';
}

export interface Judgement {
  publish: boolean;
  /** Every problem of the candidate, with the severity it has against the baseline. */
  problems: Problem[];
  /** The errors that keep it from being published (empty when it is published). */
  blocking: Problem[];
}

/** Emptied lists on this many clusters at once are a mass shrink, not a decommission. */
export const GUARD_EMPTIED_CLUSTERS = 2;
/** A fleet of fewer inputs than this is too small for the share rule. */
export const GUARD_MIN_FLEET_INPUTS = 10;
export const ALLOW_SHRINK_TRAILER = 'Gitops-Allow-Shrink: yes';

export function judge(candidate: Candidate, baseline: Baseline | undefined, options: JudgeOptions = {}): Judgement {
  const view = baseline === undefined ? undefined : baselineView(baseline);
  const firstRevisionSkips = (options.danglingWithoutBaseline ?? 'warning') === 'warning';
  const problems = [...candidate.problems, ...withoutEchoes(candidate, checkRevision(candidate.snapshot))].map((p) => {
    if (p.code !== 'dangling_reference') return p;
    // A first revision has no history: its dangling references are the contract's "skipped"
    // (unless the caller asked for them as errors).
    const old = view === undefined ? firstRevisionSkips : view.dangling.has(`${p.at.record!.id}\u0000${p.identity}`);
    return old ? { ...p, severity: 'warning' as const } : p;
  });
  if (view) {
    for (const p of guardAgainst(candidate.snapshot, view)) problems.push(candidate.allowShrink ? { ...p, severity: 'warning', message: `${p.message} (allowed for this revision)` } : p);
  }
  const blocking = problems.filter(isError);
  return { publish: blocking.length === 0, problems, blocking };
}

/**
 * A record whose file failed to load would otherwise show up again as a dangling reference
 * in every cluster that uses it, and its catalog entries as unused: echoes that hide the one
 * problem to fix. (The revision is refused for the failed file anyway.)
 */
function withoutEchoes(candidate: Candidate, problems: Problem[]): Problem[] {
  const failed = new Set<string>();
  for (const p of candidate.problems) {
    const record = p.at.record;
    if (record && isError(p) && !candidate.snapshot[record.collection].has(record.id)) failed.add(recordName(record));
  }
  if (failed.size === 0) return problems;
  const anyClusterFailed = [...failed].some((key) => key.startsWith('clusters/'));
  return problems.filter((p) => {
    if ((p.code === 'dangling_reference' || p.code === 'unknown_dependency') && p.refersTo) return !failed.has(recordName(p.refersTo));
    if (p.code === 'unused_catalog_entry') return !anyClusterFailed;
    return true;
  });
}

const ENDPOINT_NAMES = ['platform-components', 'namespaces', 'rolebindings'];
const HOW_TO_ALLOW = `if that is meant, add the trailer "${ALLOW_SHRINK_TRAILER}" to the commit message, or name the revision in GUARD_ACCEPT_REVISION`;

/** The shrink guard's problems: emptied lists on several clusters, or half of the fleet's inputs gone. */
export function shrinkGuard(snapshot: Snapshot, baseline: Baseline): Problem[] {
  return guardAgainst(snapshot, baselineView(baseline));
}

function guardAgainst(snapshot: Snapshot, baseline: BaselineView): Problem[] {
  const emptied: string[] = [];
  const before = baseline.total;
  const fleet = analyzeFleet(snapshot);
  const after = fleet.total;
  for (const [id, now] of fleet.counts) {
    const was = baseline.countsOf(id);
    if (!was || (now[0] > 0 && now[1] > 0 && now[2] > 0)) continue;
    const lists = ENDPOINT_NAMES.filter((_, i) => was[i]! > 0 && now[i] === 0);
    if (lists.length > 0) emptied.push(`${id} (${lists.join(', ')})`);
  }
  const problems: Problem[] = [];
  if (emptied.length >= GUARD_EMPTIED_CLUSTERS) {
    const named = emptied.length > 20 ? `${emptied.slice(0, 20).join(', ')} and ${emptied.length - 20} more` : emptied.join(', ');
    problems.push(
      problem(
        'shrink_guard',
        { field: '' },
        `${emptied.length} clusters would get an empty list, and each one's agent would delete everything it rendered from it: ${named}; ${HOW_TO_ALLOW}`,
        { identity: 'emptied' },
      ),
    );
  }
  if (before >= GUARD_MIN_FLEET_INPUTS && after * 2 < before) {
    problems.push(
      problem('shrink_guard', { field: '' }, `the fleet's inputs would drop from ${before} to ${after}, more than half of them gone; ${HOW_TO_ALLOW}`, {
        identity: 'half',
      }),
    );
  }
  return problems;
}

/** Whether a commit message carries the trailer that allows a mass shrink. */
export function allowsShrink(message: string): boolean {
  return message.split('\n').some((line) => line.trim().toLowerCase() === ALLOW_SHRINK_TRAILER.toLowerCase());
}
