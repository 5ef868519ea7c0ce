// What every backend (git, sqlite, memory) offers the rest of the service. A backend loads
// and checks whole revisions and publishes them as snapshots; nothing outside src/store/
// knows which backend runs.
import type { BackendName } from '../config.ts';
import type { Problem } from '../domain/problems.ts';

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
