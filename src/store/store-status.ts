// What the store runner reports of itself on /ready: the revision published, the outcome of
// the last load, and the backend's facts.
import type { Problem } from '../domain/problem.ts';
import { analyzeFleet } from '../domain/rules/index.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import type { StoreFaultReason } from './errors.ts';
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
