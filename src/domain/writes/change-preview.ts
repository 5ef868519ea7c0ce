// What a change set would do, before it is committed: the revision it makes, judged against
// the one it was applied to as the server judges every revision (publishable, every problem,
// the shrink guard's verdict), and what changes for each cluster — in the one report of a
// change that `gitops-config diff` prints too (../revision-diff.ts). Why one report, and why the
// guard is a verdict here rather than a refusal: docs/decisions/0031-change-sets-and-history-at-their-largest.md.
import type { ReceiverHosts } from '../receiver-hosts.ts';
import { allowsShrink, judge } from '../judge.ts';
import { withSources } from '../problem.ts';
import { analyzeFleetInSteps } from '../rules/index.ts';
import type { DiffReport } from '../diff-report.ts';
import { revisionDiffInSteps } from '../revision-diff.ts';
import type { Snapshot } from '../snapshot.ts';
import { runSteps, type Steps } from '../steps.ts';
import { changeSetAllowsShrink, type ChangeSetRequest } from './change-set.ts';

/** How a preview names the two revisions: the one served, and the one the change set would make. */
export const PREVIEW_LABELS = { base: 'served', head: 'change set' } as const;

/**
 * `before`: the revision the set was applied to; `after`: the one it makes (with the shrink
 * guard off, so that a set the guard refuses still shows what it would do); `sources`: which
 * file each record of `before` came from, so that problems name it.
 */
export function previewChangeSet(
  before: Snapshot,
  after: Snapshot,
  request: ChangeSetRequest,
  sources: ReadonlyMap<string, string>,
  retired?: ReadonlyMap<string, number>,
): DiffReport {
  return runSteps(previewChangeSetSteps(before, after, request, sources, retired));
}

/** previewChangeSet in steps: the judgement, then the report cluster by cluster (../revision-diff.ts). */
export function* previewChangeSetSteps(
  before: Snapshot,
  after: Snapshot,
  request: ChangeSetRequest,
  sources: ReadonlyMap<string, string>,
  /** The credential_generation of clusters earlier revisions deleted. */
  retired?: ReadonlyMap<string, number>,
  /** RECEIVER_HOSTS: what a cluster's receiver_url may name. */
  receiverHosts?: ReceiverHosts,
): Steps<DiffReport> {
  // The trailer says a shrink is meant, as in a commit. A single write is never held to the
  // guard either, but says nothing: it is let through only when the guard finds a shrink.
  const meant = allowsShrink(request.message ?? '');
  yield* analyzeFleetInSteps(after);
  let judged = judge({ snapshot: after, problems: [], allowShrink: meant }, before, { retired, receiverHosts });
  if (!meant && judged.guard?.verdict === 'refuse' && changeSetAllowsShrink(request)) {
    judged = judge({ snapshot: after, problems: [], allowShrink: true }, before, { retired, receiverHosts });
  }
  const problems = withSources(judged.problems, sources);
  yield;
  return yield* revisionDiffInSteps(before, after, {
    base: { label: PREVIEW_LABELS.base, commit: before.revision, problems: [] },
    head: { label: PREVIEW_LABELS.head, commit: null },
    judgement: { ...judged, problems, blocking: withSources(judged.blocking, sources) },
  });
}
