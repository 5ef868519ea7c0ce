// Faults of the store, typed where they arise. The HTTP layer maps them to status codes in
// one place (src/http/error-mapping.ts); nothing here knows of HTTP.
import type { Problem } from '../domain/problem.ts';
import type { WriteRefusal } from '../domain/writes/write-request.ts';

/**
 * Why the store cannot answer or take a write now. A fixed list, so that the metrics can count
 * write failures by it (gitops_config_write_failures_total{reason}) with every reason present from the start.
 */
export const STORE_FAULT_REASONS = [
  /** Nothing has been loaded and published yet. */
  'not_loaded',
  /** The store holds a revision that was refused: writes wait until it is fixed. */
  'revision_refused',
  /** Another process holds the store's lock for longer than a write waits. */
  'locked',
  'disk_full',
  'remote_unreachable',
  /** The remote refused the credentials. */
  'auth_failed',
  /** The remote refused the change for another reason. */
  'remote_refused',
  /** The remote refused the pushed objects themselves (its checks, a size limit): the same commit never lands. */
  'content_refused',
  /** The store kept changing under a write, attempt after attempt. */
  'kept_moving',
  'read_only',
  /** The repository is in a state a write must not touch until a person acts: a merge in progress, a damaged index. */
  'repository_state',
  /** Any other failure to read or write the store. */
  'io',
] as const;

export type StoreFaultReason = (typeof STORE_FAULT_REASONS)[number];

export class StoreUnavailable extends Error {
  readonly reason: StoreFaultReason;
  /** The problems that made the store's revision refused (reason `revision_refused`). */
  readonly problems: readonly Problem[];

  constructor(reason: StoreFaultReason, message: string, problems: readonly Problem[] = []) {
    super(message);
    this.name = 'StoreUnavailable';
    this.reason = reason;
    this.problems = problems;
  }
}

/** A write refused by the rules (domain/writes/change-set.ts): nothing was stored. */
export class WriteRefused extends Error {
  readonly refusal: WriteRefusal;
  /** The write of the change set it is about, counted from 0. */
  readonly index: number | undefined;

  constructor(refusal: WriteRefusal, index?: number) {
    super(refusal.message);
    this.name = 'WriteRefused';
    this.refusal = refusal;
    this.index = index;
  }
}

/**
 * The store moved past the revision a write was computed on (someone committed, another
 * process wrote, the remote branch moved). Nothing was stored; the runner loads the new
 * revision and applies the write again there.
 */
export class BaseMoved extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaseMoved';
  }
}

/** The message of an error from a library or the system, for a fault report. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether a system error means a full disk (or quota). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

/** A backend's commit throws StoreUnavailable for what it knows; anything else is still a store fault. */
export function asStoreFault(error: unknown): StoreUnavailable {
  if (error instanceof StoreUnavailable) return error;
  return new StoreUnavailable(
    'io',
    `the store could not take the write, so nothing was stored: ${describeError(error)}`,
  );
}
