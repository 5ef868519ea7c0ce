// A candidate revision, built into a snapshot and judged (domain/judge.ts) against a baseline,
// with every problem pointed at the file it is in.
import { type BaselineFacts, judge, type Judgement } from '../domain/judge.ts';
import { withSources } from '../domain/problem.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import { updateSnapshot } from '../domain/snapshot-update.ts';
import type { Candidate } from './backend.ts';

export interface JudgedCandidate {
  candidate: Candidate;
  /** The snapshot (the usable part of it when the candidate does not build). */
  snapshot: Snapshot;
  judgement: Judgement;
}

/**
 * GUARD_ACCEPT_REVISION: the revisions whose shrink is meant. An entry names a revision
 * exactly, or a commit by a prefix of its id of at least 7 hex digits.
 */
export function acceptsShrinkOf(accepted: readonly string[], revision: string): boolean {
  return accepted.some((entry) => entry === revision || (/^[0-9a-f]{7,40}$/.test(entry) && /^[0-9a-f]{40}$/.test(revision) && revision.startsWith(entry)));
}

/** A candidate built into a snapshot, not judged yet. */
export type BuiltCandidate = ReturnType<typeof updateSnapshot>;

/**
 * `previous`, when given, is a snapshot the candidate is likely to share most records with
 * (the one served, the commit before it): the candidate's snapshot is built from it.
 */
export function buildCandidate(candidate: Candidate, previous?: Snapshot): BuiltCandidate {
  return updateSnapshot(previous, candidate.records, candidate.revision);
}

/** The built candidate judged against `baseline`, with every problem pointed at its file. */
export function judgeBuilt(
  candidate: Candidate,
  built: BuiltCandidate,
  baseline: Snapshot | BaselineFacts | undefined,
  acceptShrink: readonly string[] = [],
): JudgedCandidate {
  const { revision, sources } = candidate;
  const snapshot = built.ok ? built.snapshot : built.partial;
  const allowShrink = candidate.allowShrink === true || acceptsShrinkOf(acceptShrink, revision);
  const judged = judge({ snapshot, problems: [...candidate.problems, ...(built.ok ? [] : built.problems)], allowShrink }, baseline);
  const judgement = {
    publish: judged.publish && built.ok,
    problems: withSources(judged.problems, sources),
    blocking: withSources(judged.blocking, sources),
  };
  return { candidate, snapshot, judgement };
}

/** Both steps at once (the start's walk through history, where nothing is served yet). */
export function judgeCandidate(
  candidate: Candidate,
  baseline: Snapshot | BaselineFacts | undefined,
  acceptShrink: readonly string[] = [],
  previous?: Snapshot,
): JudgedCandidate {
  return judgeBuilt(candidate, buildCandidate(candidate, previous), baseline, acceptShrink);
}
