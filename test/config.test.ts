import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDuration, parseListenAddress } from '../src/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ AUTH_TOKEN: 't' });
    expect(config).toMatchObject({
      apiMode: 'read-only',
      backend: 'git',
      databaseUrl: 'sqlite://data/config.db?mode=rwc',
      crudAuthToken: 't',
      seedFile: 'data/seed.json',
      openapiFile: 'openapi/openapi.yaml',
      listen: { host: '0.0.0.0', port: 8080 },
      logLevel: 'info',
      configRepo: 'config-repo-example',
      configBranch: undefined,
      cloneDir: 'data/config-repo',
      syncIntervalMs: 30_000,
      gitAuthorName: 'gitops-config-api',
      gitAuthorEmail: 'gitops-config-api@localhost',
      webhookSecret: undefined,
      maxBodyBytes: 1024 * 1024,
    });
  });

  it('parses listen addresses', () => {
    expect(parseListenAddress('127.0.0.1:9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(parseListenAddress('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseListenAddress(':8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(() => parseListenAddress('8080')).toThrow(ConfigError);
  });

  it('parses durations', () => {
    expect(parseDuration('X', '500ms')).toBe(500);
    expect(parseDuration('X', '30s')).toBe(30_000);
    expect(parseDuration('X', '5m')).toBe(300_000);
    expect(parseDuration('X', '1h')).toBe(3_600_000);
    expect(parseDuration('X', '45')).toBe(45_000);
    expect(() => parseDuration('X', '0s')).toThrow(ConfigError);
  });

  it('takes the log level from LOG_LEVEL, else a plain RUST_LOG level', () => {
    expect(loadConfig({ AUTH_TOKEN: 't', RUST_LOG: 'debug' }).logLevel).toBe('debug');
    expect(loadConfig({ AUTH_TOKEN: 't', RUST_LOG: 'my_crate=debug' }).logLevel).toBe('info');
    expect(loadConfig({ AUTH_TOKEN: 't', RUST_LOG: 'debug', LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(() => loadConfig({ AUTH_TOKEN: 't', LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL=loud/);
  });

  it('checks the Git credentials fit together', () => {
    expect(() => loadConfig({ AUTH_TOKEN: 't', GIT_USERNAME: 'u' })).toThrow(/GIT_USERNAME needs GIT_PASSWORD or GIT_TOKEN/);
    expect(() => loadConfig({ AUTH_TOKEN: 't', GIT_PASSWORD: 'p' })).toThrow(/GIT_PASSWORD needs GIT_USERNAME/);
    expect(() => loadConfig({ AUTH_TOKEN: 't', GIT_USERNAME: 'u', GIT_PASSWORD: 'p', GIT_TOKEN: 'x' })).toThrow(/both set/);
    expect(loadConfig({ AUTH_TOKEN: 't', GIT_USERNAME: 'bot', GIT_TOKEN: 'x' })).toMatchObject({ gitUsername: 'bot', gitToken: 'x' });
  });
});
