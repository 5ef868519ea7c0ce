// Where one member of a rollout stands, from what is known of it: its step released or not,
// its pins, what it fetched and reported, and when it last polled. Pure: the facts are
// gathered by the service (poll records merged with peers; reports when clusters send them).
//
//   pending    its step is not released
//   pinned     its own pins cover every field the rollout changes: its answer does not change
//   failed     it reported the upgrade failed (with the message it sent)
//   succeeded  it reported the upgrade succeeded
//   fetched    it fetched an answer of a revision in which its step is released
//   offline    released, not fetched, and no poll of any endpoint for ROLLOUT_OFFLINE_AFTER,
//              counted from its last poll or from when tracking started, whichever is later
//   released   released, none of the above yet
import { clockTime } from './rollout-words.ts';

export const CLUSTER_STATES = ['pending', 'released', 'fetched', 'succeeded', 'failed', 'offline', 'pinned'] as const;
export type ClusterState = (typeof CLUSTER_STATES)[number];

/** What a cluster reported of its upgrade to this rollout's release (only reports that count for it). */
export interface ClusterReport {
  state: 'succeeded' | 'failed';
  /** When it was reported (ms since the epoch). */
  at: number;
  message: string;
}

/** What is known of a member, all times in ms since the epoch. */
export interface ClusterFacts {
  /** Its last poll of any endpoint, or null when none was seen. */
  lastPollAt: number | null;
  /** Since when it holds an answer carrying its released step (its last platform-components poll), or null. */
  fetchedAt: number | null;
  /** What it reported, or null. */
  report: ClusterReport | null;
}

export const NO_FACTS: ClusterFacts = Object.freeze({ lastPollAt: null, fetchedAt: null, report: null });

/** The moment and the settings progress is judged by. */
export interface ProgressClock {
  now: number;
  /** ROLLOUT_OFFLINE_AFTER in milliseconds. */
  offlineAfterMs: number;
  /** When this process started tracking (no poll before it is known). */
  trackingSince: number;
}

export interface ClusterProgress {
  id: string;
  state: ClusterState;
  /** Since when it is in this state (ms since the epoch); null for pending. */
  since: number | null;
  message?: string;
}

/** Where its step stands, as far as one member is concerned. */
export interface MemberStep {
  released: boolean;
  /** When the step was first seen released, or null when it is not. */
  releasedAt: number | null;
}

export function memberProgress(
  id: string,
  step: MemberStep,
  pinned: boolean,
  facts: ClusterFacts,
  clock: ProgressClock,
): ClusterProgress {
  if (!step.released) return { id, state: 'pending', since: null };
  if (pinned) return { id, state: 'pinned', since: step.releasedAt };
  const report = facts.report;
  if (report?.state === 'failed') return { id, state: 'failed', since: report.at, message: report.message };
  if (report?.state === 'succeeded') return { id, state: 'succeeded', since: report.at };
  if (facts.fetchedAt !== null) return { id, state: 'fetched', since: facts.fetchedAt };
  const seen = Math.max(facts.lastPollAt ?? Number.NEGATIVE_INFINITY, clock.trackingSince);
  if (clock.now - seen >= clock.offlineAfterMs) {
    const message =
      facts.lastPollAt !== null && facts.lastPollAt >= clock.trackingSince
        ? `no poll since ${clockTime(facts.lastPollAt, clock.now)}`
        : `no poll seen since tracking started at ${clockTime(clock.trackingSince, clock.now)}`;
    return { id, state: 'offline', since: seen + clock.offlineAfterMs, message };
  }
  return { id, state: 'released', since: step.releasedAt };
}
