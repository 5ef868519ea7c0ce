// A loaded revision (./backend.ts) taken through the two steps before it may be published:
// built into a snapshot, then judged (domain/judge.ts) against a baseline, with every problem
// pointed at the file it is in. The runner takes the steps apart, to give polls a turn of
// the event loop between them.
import type { ReceiverHosts } from '../../domain/receiver-hosts.ts';
import type { Baseline } from '../../domain/baseline.ts';
import { judge, type Judgement } from '../../domain/judge.ts';
import { withSources } from '../../domain/problem.ts';
import type { Snapshot, SnapshotResult } from '../../domain/snapshot.ts';
import { updateSnapshot, updateSnapshotInSteps } from '../../domain/snapshot-update.ts';
import { analyzeFleetInSteps } from '../../domain/rules/fleet-analysis.ts';
import type { LoadedRevision } from '../backend.ts';
import { runInSlices } from './event-loop.ts';

export interface JudgedRevision {
  revision: LoadedRevision;
  /** The snapshot (the usable part of it when the revision does not build). */
  snapshot: Snapshot;
  judgement: Judgement;
}

/**
 * GUARD_ACCEPT_REVISION: the revisions whose shrink is meant. An entry names a revision
 * exactly, or a commit by a prefix of its id of at least 7 hex digits.
 */
export function acceptsShrinkOf(accepted: readonly string[], revision: string): boolean {
  return accepted.some(
    (entry) =>
      entry === revision ||
      (/^[0-9a-f]{7,40}$/.test(entry) && /^[0-9a-f]{40}$/.test(revision) && revision.startsWith(entry)),
  );
}

/**
 * The first step: `previous`, when given, is a snapshot the revision is likely to share most
 * records with (the one served, the commit before it): the new snapshot is built from it.
 */
export function buildRevision(revision: LoadedRevision, previous?: Snapshot): SnapshotResult {
  return updateSnapshot(previous, revision.records, revision.revision, revision.replaced);
}

/**
 * buildRevision with the event loop's turns between its steps, and the fleet's analysis the
 * judgement reads made the same way (it is kept per snapshot): at 50,000 clusters each took
 * 100-200 ms in one piece.
 */
export async function buildRevisionInSlices(revision: LoadedRevision, previous?: Snapshot): Promise<SnapshotResult> {
  const built = await runInSlices(
    updateSnapshotInSteps(previous, revision.records, revision.revision, revision.replaced),
  );
  await runInSlices(analyzeFleetInSteps(built.ok ? built.snapshot : built.partial, previous));
  return built;
}

/** The second step: the built revision judged against `baseline`, with every problem pointed at its file. */
export function judgeRevision(
  revision: LoadedRevision,
  built: SnapshotResult,
  baseline: Baseline | undefined,
  acceptShrink: readonly string[] = [],
  /** The credential_generation of clusters earlier revisions deleted. */
  retired?: ReadonlyMap<string, number>,
  /** RECEIVER_HOSTS: what a cluster's receiver_url may name. */
  receiverHosts?: ReceiverHosts,
): JudgedRevision {
  const { sources } = revision;
  const snapshot = built.ok ? built.snapshot : built.partial;
  const allowShrink = revision.allowShrink === true || acceptsShrinkOf(acceptShrink, revision.revision);
  const judged = judge(
    { snapshot, problems: [...revision.problems, ...(built.ok ? [] : built.problems)], allowShrink },
    baseline,
    { retired, receiverHosts },
  );
  const judgement = {
    publish: judged.publish && built.ok,
    problems: withSources(judged.problems, sources),
    blocking: withSources(judged.blocking, sources),
    ...(judged.guard ? { guard: judged.guard } : {}),
  };
  return { revision, snapshot, judgement };
}
