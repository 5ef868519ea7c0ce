// What the store runner reports of itself on /ready: the revision published, the outcome of
// the last load, and the backend's facts.
import type { Problem } from '../../domain/problem.ts';
import { analyzeFleet } from '../../domain/rules/index.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { StoreFaultReason } from '../errors.ts';
import type { PublishedRevision } from './published-revision.ts';

/** The outcome of the last attempt to load a revision, shown on /ready. */
export interface LoadReport {
  at: string;
  ok: boolean;
  revision?: string;
  /** Why the store could not be read (a load that failed rather than one refused). */
  reason?: StoreFaultReason;
  error?: string;
  problems?: Problem[];
  /**
   * While loads go wrong (refused or failed) and an earlier revision stays served: when the
   * first of them ended, which is when /ready began to say `stale` (the alert rules time it).
   */
  staleSince?: string;
}

/** The report of a load that just ended, after `previous`: a run of failed or refused loads keeps the time it began. */
export function nextLoadReport(previous: LoadReport | undefined, next: LoadReport): LoadReport {
  if (next.ok) return next;
  return { ...next, staleSince: previous?.ok === false ? (previous.staleSince ?? previous.at) : next.at };
}

export interface StoreStatus {
  published: PublishedRevision | undefined;
  lastLoad: LoadReport | undefined;
  /** The backend's facts for everyone. */
  details: Record<string, unknown>;
  /** The backend's facts for a caller with a token (paths, URLs, error texts). */
  internal: Record<string, unknown>;
}

/** The counts a publication or a refusal is logged with. */
export function sizeOf(snapshot: Snapshot): { clusters: number; inputs: number } {
  return { clusters: snapshot.clusters.size, inputs: analyzeFleet(snapshot).total };
}
