// Whether a loaded revision may be served: the candidate is judged against the revision
// served before it (the baseline). Every backend's load path, `validate` and `diff` go
// through this one function, so a revision is published by the same rules whatever it was
// read from. It is published when it has:
//   1. no error problem (every rule of ./rules/);
//   2. no new dangling reference: one the baseline already had is a warning and is skipped
//      (with no baseline, every one is a warning, or every one an error when asked);
//   3. the shrink guard: neither 2 or more clusters' lists emptied, nor more than half of
//      the fleet's inputs gone (when that is 10 or more), unless the shrink is intended;
//   4. no cluster's credential_generation lower than the baseline's (./credential-generations.ts);
//   5. no oci_url that is no oci/https/http URL, unless the baseline had it already (or there is none);
//   6. no receiver_url off RECEIVER_HOSTS, unless the baseline's cluster had it already (or there is none).
// Why: docs/decisions/0001-judge-before-publishing.md and 0002-shrink-guard.md.
import { isError, type Problem, recordName } from './problem.ts';
import type { Snapshot } from './snapshot.ts';
import { checkRevision } from './rules/index.ts';
import { type Baseline, baselineView } from './baseline.ts';
import { generationProblems } from './credential-generations.ts';
import { guardProblems, guardVerdict, type ShrinkGuardVerdict } from './shrink-guard.ts';
import type { ReceiverHosts } from './receiver-hosts.ts';
import { receiverUrlProblems } from './rules/receiver-url.ts';

export { ALLOW_SHRINK_TRAILER, allowsShrink, GUARD_EMPTIED_CLUSTERS, GUARD_MIN_FLEET_INPUTS } from './shrink-guard.ts';

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
  /**
   * The credential_generation of clusters earlier revisions deleted (beside what facts kept of
   * them): a cluster created again at or below it is warned of.
   */
  retired?: ReadonlyMap<string, number>;
  /** RECEIVER_HOSTS: what a cluster's receiver_url may name; undefined: receivers are off (./rules/receiver-url.ts). */
  receiverHosts?: ReceiverHosts;
}

export interface Judgement {
  publish: boolean;
  /** Every problem of the candidate, with the severity it has against the baseline. */
  problems: Problem[];
  /** The errors that keep it from being published (empty when it is published). */
  blocking: Problem[];
  /** The shrink guard's verdict; absent without a baseline, which the guard needs. */
  guard?: ShrinkGuardVerdict;
}

export function judge(candidate: Candidate, baseline: Baseline | undefined, options: JudgeOptions = {}): Judgement {
  const view = baseline === undefined ? undefined : baselineView(baseline);
  const firstRevisionSkips = (options.danglingWithoutBaseline ?? 'warning') === 'warning';
  const problems = [...candidate.problems, ...withoutEchoes(candidate, checkRevision(candidate.snapshot))].map((p) => {
    if (p.code === 'oci_url_scheme') {
      // Warnings first: an error only where the revision brings the value in
      // (docs/decisions/0032-credential-generation-and-oci-url-ratchets.md).
      const old = view?.badOciUrls === undefined || view.badOciUrls.has(`${p.at.record!.id}\u0000${p.identity}`);
      return old ? { ...p, severity: 'warning' as const } : p;
    }
    if (p.code !== 'dangling_reference') return p;
    // A first revision has no history: its dangling references are the contract's "skipped"
    // (unless the caller asked for them as errors).
    const old = view === undefined ? firstRevisionSkips : view.dangling.has(`${p.at.record!.id}\u0000${p.identity}`);
    return old ? { ...p, severity: 'warning' as const } : p;
  });
  for (const p of receiverUrlProblems(candidate.snapshot, options.receiverHosts)) {
    // An error only where the revision brings the value in, as for oci_url: a narrower
    // RECEIVER_HOSTS must not stop publication (the notifier skips such a receiver).
    const was = view?.clusters?.get(p.at.record!.id)?.receiver_url;
    const old = view?.clusters === undefined || (was != null && p.identity === `receiver_url:${was}`);
    problems.push(old ? { ...p, severity: 'warning' } : p);
  }
  if (view) {
    const retired =
      options.retired && view.retired.size > 0
        ? new Map([...view.retired, ...options.retired])
        : (options.retired ?? view.retired);
    problems.push(
      ...generationProblems(candidate.snapshot, { generationOf: view.generationOf, clusters: view.clusters, retired }),
    );
  }
  const guard = view === undefined ? undefined : guardVerdict(candidate.snapshot, view, candidate.allowShrink === true);
  if (guard) problems.push(...guardProblems(guard));
  const blocking = problems.filter(isError);
  return { publish: blocking.length === 0, problems, blocking, ...(guard ? { guard } : {}) };
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
    if ((p.code === 'dangling_reference' || p.code === 'unknown_dependency') && p.refersTo)
      return !failed.has(recordName(p.refersTo));
    if (p.code === 'unused_catalog_entry') return !anyClusterFailed;
    return true;
  });
}

/** The shrink guard's problems: emptied lists on several clusters, or half of the fleet's inputs gone. */
export function shrinkGuard(snapshot: Snapshot, baseline: Baseline): Problem[] {
  return guardProblems(guardVerdict(snapshot, baselineView(baseline), false));
}
