// The settings more than one backend reads, kept here so that each has one name, one default
// and one message. Which backend reads which is said at each; a setting of one backend alone
// lives in that backend's folder (<folder>/*-kind.ts).
import type { Env } from '../../shared/secret-settings.ts';
import { oneOf, parseByteSize } from '../../shared/setting-values.ts';

/** API_MODE: read-only serves reads; crud adds the REST writes. */
export type ApiMode = 'read-only' | 'crud';

export interface SharedBackendSettings {
  /** CONFIG_REPO: git-local's folder, or the http(s) URL git-remote clones (git-kind.ts tells which). */
  configRepo: string;
  /** API_MODE: every backend opens for writing in crud mode only (the service reads it too). */
  apiMode: ApiMode;
  /** SEED_FILE: the memory backend's data, and the first rows of a new SQLite database. */
  seedFile: string;
  /** MAX_RECORD_BYTES: git-local and git-remote refuse a larger record file without reading it. */
  maxRecordBytes: number;
  /** GIT_AUTHOR_NAME: git-local's and git-remote's committer, and the author unless a person wrote. */
  gitAuthorName: string;
  /** GIT_AUTHOR_EMAIL: the committer's (and author's) e-mail of git-local's and git-remote's commits. */
  gitAuthorEmail: string;
}

export function sharedBackendSettingsFrom(env: Env): SharedBackendSettings {
  return {
    configRepo: env.CONFIG_REPO || 'config-repo-example',
    apiMode: oneOf(env, 'API_MODE', ['read-only', 'crud'] as const, 'read-only'),
    seedFile: env.SEED_FILE || 'data/seed.json',
    maxRecordBytes: parseByteSize('MAX_RECORD_BYTES', env.MAX_RECORD_BYTES || '1mb'),
    gitAuthorName: env.GIT_AUTHOR_NAME || 'gitops-config-api',
    gitAuthorEmail: env.GIT_AUTHOR_EMAIL || 'gitops-config-api@localhost',
  };
}
