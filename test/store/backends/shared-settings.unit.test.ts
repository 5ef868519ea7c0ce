import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/shared/config-error.ts';
import { sharedBackendSettingsFrom } from '../../../src/store/backends/shared-settings.ts';

describe('the settings several backends share', () => {
  it('have the documented defaults (docs/configuration.md), an empty value counting as unset', () => {
    const defaults = {
      configRepo: 'config-repo-example',
      apiMode: 'read-only',
      seedFile: 'data/seed.json',
      maxRecordBytes: 1024 * 1024,
      gitAuthorName: 'gitops-config-api',
      gitAuthorEmail: 'gitops-config-api@localhost',
    };
    expect(sharedBackendSettingsFrom({})).toEqual(defaults);
    const names = ['CONFIG_REPO', 'API_MODE', 'SEED_FILE', 'MAX_RECORD_BYTES', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL'];
    expect(sharedBackendSettingsFrom(Object.fromEntries(names.map((name) => [name, ''])))).toEqual(defaults);
  });

  it('take each from its variable', () => {
    const env = {
      CONFIG_REPO: 'https://git.example.com/fleet.git',
      API_MODE: 'crud',
      SEED_FILE: '/seed/fleet.json',
      MAX_RECORD_BYTES: '256kb',
      GIT_AUTHOR_NAME: 'Fleet Bot',
      GIT_AUTHOR_EMAIL: 'fleet-bot@example.com',
    };
    expect(sharedBackendSettingsFrom(env)).toEqual({
      configRepo: 'https://git.example.com/fleet.git',
      apiMode: 'crud',
      seedFile: '/seed/fleet.json',
      maxRecordBytes: 256 * 1024,
      gitAuthorName: 'Fleet Bot',
      gitAuthorEmail: 'fleet-bot@example.com',
    });
  });

  it('refuse an API_MODE or a MAX_RECORD_BYTES that does not parse, naming the variable', () => {
    expect(() => sharedBackendSettingsFrom({ API_MODE: 'write' })).toThrow(ConfigError);
    expect(() => sharedBackendSettingsFrom({ API_MODE: 'write' })).toThrow(
      'API_MODE=write is not valid; use one of: read-only, crud',
    );
    expect(() => sharedBackendSettingsFrom({ MAX_RECORD_BYTES: '1gb' })).toThrow(
      'MAX_RECORD_BYTES=1gb is not a size; use e.g. 1mb, 512kb or plain bytes',
    );
  });
});
