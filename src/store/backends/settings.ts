// What the backends are built from: the part of the service configuration (src/config.ts,
// read from the environment) that concerns the store.
export interface BackendSettings {
  backend: string;
  /** crud mode accepts writes. */
  apiMode: ApiMode;
  /** git: a local directory, or an http(s) URL. */
  configRepo: string;
  /** Undefined: the remote's default branch (main for a new local repo). */
  configBranch: string | undefined;
  cloneDir: string;
  syncIntervalMs: number;
  gitToken: string | undefined;
  gitUsername: string | undefined;
  gitPassword: string | undefined;
  gitAuthorName: string;
  gitAuthorEmail: string;
  /** sqlite */
  databaseUrl: string;
  /** memory, and a new SQLite database */
  seedFile: string;
  /** MAX_RECORD_BYTES: a larger record file is refused without being read. */
  maxRecordBytes: number;
  /** GIT_LOCK_TIMEOUT: how long a Git write waits for index.lock or a branch lock someone else holds. */
  gitLockTimeoutMs: number;
}

/** API_MODE: read-only serves reads; crud adds the REST writes. */
export type ApiMode = 'read-only' | 'crud';
