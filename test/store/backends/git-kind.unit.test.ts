import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/shared/logger.ts';
import { LocalGitBackend } from '../../../src/store/backends/git-local/local-git-backend.ts';
import { gitKind } from '../../../src/store/backends/git-kind.ts';
import { RemoteGitBackend } from '../../../src/store/backends/git-remote/remote-git-backend.ts';
import { sharedBackendSettingsFrom } from '../../../src/store/backends/shared-settings.ts';

function made(configRepo: string) {
  const env = { CONFIG_REPO: configRepo };
  return gitKind.create({ ...sharedBackendSettingsFrom(env), ...gitKind.settingsFrom(env) }, createLogger('silent'));
}

describe('STORE_BACKEND=git', () => {
  it('reads the settings of both the local checkout and the remote', () => {
    expect(gitKind.settingsFrom({ GIT_LOCK_TIMEOUT: '1s', CONFIG_SYNC_INTERVAL: '1m' })).toEqual({
      gitLockTimeoutMs: 1000,
      configBranch: undefined,
      cloneDir: 'data/config-repo',
      syncIntervalMs: 60_000,
      gitToken: undefined,
      gitUsername: undefined,
      gitPassword: undefined,
    });
  });

  it('refuses a bad setting of either, whichever form CONFIG_REPO has', () => {
    const local = { CONFIG_REPO: 'fleet-config', CONFIG_SYNC_INTERVAL: 'often' };
    expect(() => gitKind.settingsFrom(local)).toThrow(/^CONFIG_SYNC_INTERVAL=often is not a duration/);
    const remote = { CONFIG_REPO: 'https://git.example.com/fleet.git', GIT_LOCK_TIMEOUT: 'long' };
    expect(() => gitKind.settingsFrom(remote)).toThrow(/^GIT_LOCK_TIMEOUT=long is not a duration/);
  });

  it('is a local checkout for a folder and a remote for an http(s) URL', () => {
    expect(made('config-repo-example')).toBeInstanceOf(LocalGitBackend);
    expect(made('/srv/fleet-config')).toBeInstanceOf(LocalGitBackend);
    expect(made('https://git.example.com/fleet.git')).toBeInstanceOf(RemoteGitBackend);
    expect(made('http://127.0.0.1:8080/fleet.git')).toBeInstanceOf(RemoteGitBackend);
  });
});
