// A Git remote cloned into a folder: STORE_BACKEND=git with CONFIG_REPO an http(s) URL
// (../git-kind.ts chooses). Its own settings are the branch, the clone's folder, how often it
// is fetched and the credentials; CONFIG_REPO, the committer and MAX_RECORD_BYTES it shares
// with git-local (../shared-settings.ts).
import { ConfigError } from '../../../shared/config-error.ts';
import { type Env, secretFrom } from '../../../shared/secret-settings.ts';
import { parseDuration } from '../../../shared/setting-values.ts';
import type { BackendKind } from '../backend-kind.ts';
import { gitCredentials, splitUrlCredentials } from './remote-auth.ts';
import { RemoteGitBackend } from './remote-git-backend.ts';

export interface RemoteGitSettings {
  /** CONFIG_BRANCH; undefined: the remote's default branch. */
  configBranch: string | undefined;
  /** CONFIG_CLONE_DIR: where the remote is cloned. */
  cloneDir: string;
  /** CONFIG_SYNC_INTERVAL: how often the remote is fetched. */
  syncIntervalMs: number;
  /** GIT_TOKEN (or GIT_TOKEN_FILE): the password of HTTP Basic auth (remote-auth.ts). */
  gitToken: string | undefined;
  /** GIT_USERNAME: with GIT_PASSWORD, or the user name GIT_TOKEN is sent with. */
  gitUsername: string | undefined;
  /** GIT_PASSWORD (or GIT_PASSWORD_FILE): with GIT_USERNAME, plain Basic auth. */
  gitPassword: string | undefined;
}

export const remoteGitKind: BackendKind<RemoteGitSettings> = {
  settingsFrom(env: Env) {
    return {
      configBranch: env.CONFIG_BRANCH || undefined,
      cloneDir: env.CONFIG_CLONE_DIR || 'data/config-repo',
      syncIntervalMs: parseDuration('CONFIG_SYNC_INTERVAL', env.CONFIG_SYNC_INTERVAL || '30s'),
      ...credentialSettingsFrom(env),
    };
  },
  create(settings, log) {
    // Credentials written into the URL count only when no GIT_* credential is set.
    const fromUrl = splitUrlCredentials(settings.configRepo);
    const { gitToken: token, gitUsername: username, gitPassword: password } = settings;
    const fromSettings = gitCredentials({ token, username, password });
    return new RemoteGitBackend({
      url: fromUrl.url,
      branch: settings.configBranch,
      cloneDir: settings.cloneDir,
      syncIntervalMs: settings.syncIntervalMs,
      credentials: fromSettings ?? fromUrl.credentials,
      log,
      author: { name: settings.gitAuthorName, email: settings.gitAuthorEmail },
      maxRecordBytes: settings.maxRecordBytes,
    });
  },
};

/** GIT_TOKEN, or GIT_USERNAME with GIT_PASSWORD (a user name may go with the token); no other mix. */
function credentialSettingsFrom(env: Env): Pick<RemoteGitSettings, 'gitToken' | 'gitUsername' | 'gitPassword'> {
  const gitUsername = env.GIT_USERNAME || undefined;
  const gitPassword = secretFrom(env, 'GIT_PASSWORD');
  const gitToken = secretFrom(env, 'GIT_TOKEN');
  if (gitPassword !== undefined && gitUsername === undefined) {
    throw new ConfigError('GIT_PASSWORD needs GIT_USERNAME; set both, or use GIT_TOKEN');
  }
  if (gitUsername !== undefined && gitPassword === undefined && gitToken === undefined) {
    throw new ConfigError('GIT_USERNAME needs GIT_PASSWORD or GIT_TOKEN');
  }
  if (gitPassword !== undefined && gitToken !== undefined) {
    throw new ConfigError('GIT_TOKEN and GIT_PASSWORD are both set; use one');
  }
  return { gitToken, gitUsername, gitPassword };
}
