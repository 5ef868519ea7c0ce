// What the store runner publishes and reports: the revision every read is answered from,
// the outcome of the last load (shown on /ready), and a write's result.
import type { Problem } from '../domain/problem.ts';
import type { StoreFaultReason } from './errors.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import type { AppliedWrite, WriteAction } from '../domain/writes/write-request.ts';
import type { Collection } from '../domain/records.ts';

/** A published revision: what every read is answered from until the next one. */
export interface Published {
  readonly snapshot: Snapshot;
  /** "collection/id" -> the file the record came from. */
  readonly sources: ReadonlyMap<string, string>;
  readonly publishedAt: Date;
  /** Problems of the revision that did not keep it from being published (warnings). */
  readonly problems: readonly Problem[];
}

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
  published: Published | undefined;
  lastLoad: LoadReport | undefined;
  /** The backend's facts for everyone. */
  details: Record<string, unknown>;
  /** The backend's facts for a caller with a token (paths, URLs, error texts). */
  internal: Record<string, unknown>;
}

export interface WriteResult {
  applied: AppliedWrite;
  revisionBefore: string;
  revisionAfter: string;
}

export type PublishListener = (next: Published, previous: Published | undefined) => void;

/**
 * How one load of a new revision ended: published, refused by the judge (the last good one
 * stays served), or failed (the store could not be read). A load that found the revision
 * already served or already refused ends in none of these and is not reported.
 */
export interface LoadOutcome {
  result: 'published' | 'refused' | 'failed';
  /** The revision loaded (unknown when the store could not be read). */
  revision?: string;
}

export type LoadListener = (outcome: LoadOutcome) => void;

/**
 * How one write that reached the store ended: stored, accepted but changing nothing, refused
 * by the rules (invalid, conflict, not found, stale If-Match), or failed in the store.
 */
export interface WriteOutcome {
  collection: Collection;
  action: WriteAction;
  result: 'ok' | 'unchanged' | 'refused' | 'failed';
}

export type WriteListener = (outcome: WriteOutcome) => void;
