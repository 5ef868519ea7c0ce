import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/shared/config-error.ts';
import { createLogger } from '../../../../src/shared/logger.ts';
import { LocalGitBackend } from '../../../../src/store/backends/git-local/local-git-backend.ts';
import { localGitKind } from '../../../../src/store/backends/git-local/local-git-kind.ts';
import { sharedBackendSettingsFrom } from '../../../../src/store/backends/shared-settings.ts';

describe('a local Git checkout', () => {
  it('waits 3 s for a lock by default (GIT_LOCK_TIMEOUT), an empty value counting as unset', () => {
    expect(localGitKind.settingsFrom({})).toEqual({ gitLockTimeoutMs: 3000 });
    expect(localGitKind.settingsFrom({ GIT_LOCK_TIMEOUT: '' })).toEqual({ gitLockTimeoutMs: 3000 });
    expect(localGitKind.settingsFrom({ GIT_LOCK_TIMEOUT: '500ms' })).toEqual({ gitLockTimeoutMs: 500 });
    expect(localGitKind.settingsFrom({ GIT_LOCK_TIMEOUT: '2' })).toEqual({ gitLockTimeoutMs: 2000 });
  });

  it('refuses a GIT_LOCK_TIMEOUT that is not a duration of at least 1 ms', () => {
    expect(() => localGitKind.settingsFrom({ GIT_LOCK_TIMEOUT: 'a while' })).toThrow(ConfigError);
    expect(() => localGitKind.settingsFrom({ GIT_LOCK_TIMEOUT: 'a while' })).toThrow(
      'GIT_LOCK_TIMEOUT=a while is not a duration; use e.g. 500ms, 30s, 5m, 1h30m or plain seconds',
    );
    const zero = { GIT_LOCK_TIMEOUT: '0s' };
    expect(() => localGitKind.settingsFrom(zero)).toThrow('GIT_LOCK_TIMEOUT=0s must be at least 1ms');
  });

  it('is made on the folder CONFIG_REPO names, not opened yet', () => {
    const env = { CONFIG_REPO: 'fleet-config' };
    const settings = { ...sharedBackendSettingsFrom(env), ...localGitKind.settingsFrom(env) };
    const backend = localGitKind.create(settings, createLogger('silent'));
    expect(backend).toBeInstanceOf(LocalGitBackend);
    expect((backend as LocalGitBackend).dir).toBe(resolve('fleet-config'));
    expect(backend.describe().internal).toEqual({ config_repo: resolve('fleet-config') });
  });
});
