import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/shared/config-error.ts';
import { createLogger } from '../../../../src/shared/logger.ts';
import { RemoteGitBackend } from '../../../../src/store/backends/git-remote/remote-git-backend.ts';
import { remoteGitKind } from '../../../../src/store/backends/git-remote/remote-git-kind.ts';
import { sharedBackendSettingsFrom } from '../../../../src/store/backends/shared-settings.ts';
import { tempDir } from '../../../helpers/temp-files.ts';

const NO_CREDENTIALS = { gitToken: undefined, gitUsername: undefined, gitPassword: undefined };
const DEFAULTS = { configBranch: undefined, cloneDir: 'data/config-repo', syncIntervalMs: 30_000, ...NO_CREDENTIALS };
/** The variables a Git remote alone reads: its place and pace, and its credentials. */
const NAMES = [
  ...['CONFIG_BRANCH', 'CONFIG_CLONE_DIR', 'CONFIG_SYNC_INTERVAL'],
  ...['GIT_TOKEN', 'GIT_USERNAME', 'GIT_PASSWORD'],
];

describe('a Git remote', () => {
  it('has the documented defaults: the default branch, data/config-repo, fetched every 30 s, no credentials', () => {
    expect(remoteGitKind.settingsFrom({})).toEqual(DEFAULTS);
    const empty = Object.fromEntries(NAMES.map((name) => [name, '']));
    expect(remoteGitKind.settingsFrom(empty)).toEqual(DEFAULTS);
  });

  it('takes each setting from its variable, a secret from its file too', () => {
    const env = { CONFIG_BRANCH: 'release', CONFIG_CLONE_DIR: '/clone', CONFIG_SYNC_INTERVAL: '90s', GIT_TOKEN: 'tok' };
    expect(remoteGitKind.settingsFrom(env)).toEqual({
      ...DEFAULTS,
      configBranch: 'release',
      cloneDir: '/clone',
      syncIntervalMs: 90_000,
      gitToken: 'tok',
    });
    const file = join(tempDir('git-password-'), 'password');
    writeFileSync(file, 'from-a-file\n');
    const basic = remoteGitKind.settingsFrom({ GIT_USERNAME: 'bot', GIT_PASSWORD_FILE: file });
    expect(basic).toMatchObject({ gitUsername: 'bot', gitPassword: 'from-a-file' });
    const named = remoteGitKind.settingsFrom({ GIT_USERNAME: 'x-access-token', GIT_TOKEN: 'tok' });
    expect(named).toMatchObject({ gitUsername: 'x-access-token', gitToken: 'tok' });
  });

  it('refuses a CONFIG_SYNC_INTERVAL that is not a duration', () => {
    expect(() => remoteGitKind.settingsFrom({ CONFIG_SYNC_INTERVAL: 'often' })).toThrow(ConfigError);
    expect(() => remoteGitKind.settingsFrom({ CONFIG_SYNC_INTERVAL: 'often' })).toThrow(
      'CONFIG_SYNC_INTERVAL=often is not a duration; use e.g. 500ms, 30s, 5m, 1h30m or plain seconds',
    );
  });

  it('refuses credentials that do not fit together, naming them and never their values', () => {
    const refusals: [Record<string, string>, string][] = [
      [{ GIT_PASSWORD: 'secret-value' }, 'GIT_PASSWORD needs GIT_USERNAME; set both, or use GIT_TOKEN'],
      [{ GIT_USERNAME: 'bot' }, 'GIT_USERNAME needs GIT_PASSWORD or GIT_TOKEN'],
      [
        { GIT_USERNAME: 'bot', GIT_PASSWORD: 'secret-value', GIT_TOKEN: 'secret-value' },
        'GIT_TOKEN and GIT_PASSWORD are both set; use one',
      ],
    ];
    for (const [env, message] of refusals) {
      expect(() => remoteGitKind.settingsFrom(env), message).toThrow(ConfigError);
      expect(() => remoteGitKind.settingsFrom(env), message).toThrow(message);
    }
  });

  it('is made on the URL without its user info, cloned into CONFIG_CLONE_DIR, not opened yet', () => {
    const env = {
      CONFIG_REPO: 'https://bot:secret-value@git.example.com/fleet.git',
      CONFIG_CLONE_DIR: 'clone',
      CONFIG_BRANCH: 'release',
      CONFIG_SYNC_INTERVAL: '5m',
    };
    const settings = { ...sharedBackendSettingsFrom(env), ...remoteGitKind.settingsFrom(env) };
    const backend = remoteGitKind.create(settings, createLogger('silent'));
    expect(backend).toBeInstanceOf(RemoteGitBackend);
    const description = backend.describe();
    expect(description.internal).toMatchObject({
      config_repo: 'https://git.example.com/fleet.git',
      clone_dir: resolve('clone'),
    });
    expect(description.details).toMatchObject({ branch: 'release', sync_interval_ms: 300_000 });
  });
});
