// A local Git checkout: STORE_BACKEND=git with CONFIG_REPO a folder (../git-kind.ts chooses).
// Its own setting is GIT_LOCK_TIMEOUT; CONFIG_REPO, the committer and MAX_RECORD_BYTES it
// shares with git-remote (../shared-settings.ts).
import type { Env } from '../../../shared/secret-settings.ts';
import { parseDuration } from '../../../shared/setting-values.ts';
import type { BackendKind } from '../backend-kind.ts';
import { LocalGitBackend } from './local-git-backend.ts';

export interface LocalGitSettings {
  /** GIT_LOCK_TIMEOUT: how long a Git write waits for index.lock or a branch lock someone else holds. */
  gitLockTimeoutMs: number;
}

export const localGitKind: BackendKind<LocalGitSettings> = {
  settingsFrom: (env: Env) => ({ gitLockTimeoutMs: parseDuration('GIT_LOCK_TIMEOUT', env.GIT_LOCK_TIMEOUT || '3s') }),
  create: (settings, log) =>
    new LocalGitBackend({
      dir: settings.configRepo,
      log,
      writable: settings.apiMode === 'crud',
      author: { name: settings.gitAuthorName, email: settings.gitAuthorEmail },
      maxRecordBytes: settings.maxRecordBytes,
      lockTimeoutMs: settings.gitLockTimeoutMs,
    }),
};
