// What every backend (git, sqlite, memory) offers the rest of the service. A backend loads
// and checks whole revisions and publishes them as snapshots; nothing outside src/store/
// knows which backend runs.
import type { BackendName } from '../config.ts';
import type { Problem } from '../domain/problems.ts';
import type { AnyRecord, Collection } from '../domain/records.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import type { TokenRole } from '../http/auth.ts';

/** The outcome of the last attempt to load a revision, shown on /ready. */
export interface LoadReport {
  at: string;
  ok: boolean;
  revision?: string;
  error?: string;
  problems?: Problem[];
}

export interface StoreStatus {
  backend: BackendName;
  last_load?: LoadReport;
  /** Backend-specific facts for /ready (branch, last sync, ...). Never a secret. */
  details?: Record<string, unknown>;
}

export interface ConfigStore {
  readonly backend: BackendName;
  /** Loads the first revision and starts watching for new ones. Throws only for errors that
   * will not go away by waiting (a missing directory, an unreadable seed file). */
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): StoreStatus;
}

export class StoreStartError extends Error {}

/**
 * One REST write, as the stores see it. `apply` computes the candidate record from the
 * current one (undefined when there is none) and the snapshot it is applied to, or returns
 * null to delete; it throws an ApiError to refuse (404, 409, 412, 400). Stores call it inside
 * their write lock (through applyMutation in ./apply-mutation.ts, which validates the
 * candidate and the snapshot it would make), and again whenever they must re-apply the
 * change to a newer revision, so it must not have side effects.
 */
export interface Mutation {
  action: 'create' | 'update' | 'delete';
  collection: Collection;
  id: string;
  /** The candidate record (any JSON value; applyMutation checks it), or null to delete. */
  apply(current: AnyRecord | undefined, snapshot: Snapshot): unknown;
  /** Which token asked, for the audit trail (never the token itself). */
  role: TokenRole;
}

export interface MutationResult {
  /** The stored record, or null after a delete. */
  record: AnyRecord | null;
  revisionBefore: string;
  revisionAfter: string;
  /** Top-level fields whose value changed (every field of a created or deleted record). */
  changedFields: string[];
  /** The published snapshot that contains the change. */
  snapshot: Snapshot;
  /** True when the write changed nothing: nothing was stored and no commit was made. */
  unchanged?: boolean;
}

/** A backend that accepts writes (crud mode). */
export interface WritableConfigStore extends ConfigStore {
  mutate(mutation: Mutation): Promise<MutationResult>;
}

export function isWritableStore(store: ConfigStore): store is WritableConfigStore {
  return typeof (store as Partial<WritableConfigStore>).mutate === 'function';
}
