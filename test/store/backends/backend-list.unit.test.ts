// The list of backends (src/store/backends/index.ts): STORE_BACKEND picks one, every backend's
// settings are read whichever is picked, and the one picked is made.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/shared/config-error.ts';
import { createLogger } from '../../../src/shared/logger.ts';
import { StartupError } from '../../../src/shared/startup-error.ts';
import { LocalGitBackend } from '../../../src/store/backends/git-local/local-git-backend.ts';
import {
  BACKEND_NAMES,
  type BackendSettings,
  backendSettingsFrom,
  createBackend,
} from '../../../src/store/backends/index.ts';
import { MemoryBackend } from '../../../src/store/backends/memory/memory-backend.ts';
import { SqliteBackend } from '../../../src/store/backends/sqlite/sqlite-backend.ts';

const log = createLogger('silent');

describe('the list of backends', () => {
  it('names git, sqlite and memory, git by default', () => {
    expect(BACKEND_NAMES).toEqual(['git', 'sqlite', 'memory']);
    expect(backendSettingsFrom({}).backend).toBe('git');
    expect(backendSettingsFrom({ STORE_BACKEND: '' }).backend).toBe('git');
    for (const name of BACKEND_NAMES) expect(backendSettingsFrom({ STORE_BACKEND: name }).backend).toBe(name);
    expect(() => backendSettingsFrom({ STORE_BACKEND: 'mongo' })).toThrow(ConfigError);
    expect(() => backendSettingsFrom({ STORE_BACKEND: 'mongo' })).toThrow(
      'STORE_BACKEND=mongo is not valid; use one of: git, sqlite, memory',
    );
  });

  it("holds the shared settings and every backend's own, with their defaults", () => {
    expect(backendSettingsFrom({ STORE_BACKEND: 'memory' })).toEqual({
      backend: 'memory',
      configRepo: 'config-repo-example',
      apiMode: 'read-only',
      seedFile: 'data/seed.json',
      maxRecordBytes: 1024 * 1024,
      gitAuthorName: 'gitops-config-api',
      gitAuthorEmail: 'gitops-config-api@localhost',
      gitLockTimeoutMs: 3000,
      configBranch: undefined,
      cloneDir: 'data/config-repo',
      syncIntervalMs: 30_000,
      gitToken: undefined,
      gitUsername: undefined,
      gitPassword: undefined,
      databaseUrl: 'sqlite://data/config.db?mode=rwc',
    });
  });

  it('refuses a bad setting of a backend that is not the one picked', () => {
    const memory = { STORE_BACKEND: 'memory', CONFIG_SYNC_INTERVAL: 'often' };
    expect(() => backendSettingsFrom(memory)).toThrow(/^CONFIG_SYNC_INTERVAL=often is not a duration/);
    const sqlite = { STORE_BACKEND: 'sqlite', GIT_USERNAME: 'bot' };
    expect(() => backendSettingsFrom(sqlite)).toThrow('GIT_USERNAME needs GIT_PASSWORD or GIT_TOKEN');
  });

  it('makes the backend picked', () => {
    expect(createBackend(backendSettingsFrom({}), log)).toBeInstanceOf(LocalGitBackend);
    const sqlite = backendSettingsFrom({ STORE_BACKEND: 'sqlite', DATABASE_URL: 'sqlite::memory:' });
    expect(createBackend(sqlite, log)).toBeInstanceOf(SqliteBackend);
    expect(createBackend(backendSettingsFrom({ STORE_BACKEND: 'memory' }), log)).toBeInstanceOf(MemoryBackend);
  });

  it('refuses a name it does not know in settings made by hand', () => {
    const settings = { ...backendSettingsFrom({}), backend: 'mongo' } as unknown as BackendSettings;
    expect(() => createBackend(settings, log)).toThrow(StartupError);
    expect(() => createBackend(settings, log)).toThrow(
      'STORE_BACKEND=mongo is not known; use one of: git, sqlite, memory',
    );
  });
});
