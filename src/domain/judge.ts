// Whether a loaded revision may be served: the candidate is judged against the revision
// served now (the baseline). Every backend's load path goes through this one function, so a
// revision is published by the same rules whatever it was read from.
import { isError, type Problem } from './problem.ts';
import type { Snapshot } from './snapshot.ts';

export interface CandidateRevision {
  /** The revision's records; when `problems` holds errors, the usable part of them. */
  snapshot: Snapshot;
  /** Problems found while it was read and assembled (files, schema, duplicates). */
  problems: Problem[];
}

export interface Judgement {
  publish: boolean;
  /** Every problem of the candidate, with the severity it has against the baseline. */
  problems: Problem[];
  /** The errors that keep it from being published (empty when it is published). */
  blocking: Problem[];
}

/**
 * A revision is published when nothing makes a served answer wrong: no record that fails to
 * read or to match its schema, no ambiguous id or DNS name, no reference listed twice.
 */
export function judge(candidate: CandidateRevision, _baseline: Snapshot | undefined): Judgement {
  const blocking = candidate.problems.filter(isError);
  return { publish: blocking.length === 0, problems: candidate.problems, blocking };
}
