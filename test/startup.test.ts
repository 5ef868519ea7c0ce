// The real entry point (src/main.ts) as a child process: start-up errors are one clear line,
// and SIGTERM stops the service cleanly. Which settings are refused, and with which line, is
// read from loadConfig() in this process for each case: main.ts prints the message of any
// StartupError (ConfigError is one) as its one line and exits 2, which the child processes
// below show for each way a start fails (a setting, a token, a token file, the store, the
// seed, the API document, the port). The warnings of a start are read from its log lines.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { tempDir } from './helpers/git-fixture.ts';
import { asSeedFile } from './helpers/fixture-data.ts';
import { baseEnv, MAIN } from './helpers/process.ts';
import { request } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const BASE_ENV = baseEnv();

function runMain(env: Record<string, string>) {
  return spawnSync(process.execPath, [MAIN], { env: { ...BASE_ENV, ...env }, encoding: 'utf8', timeout: 15_000 });
}

/** The error loadConfig() throws for `env`: what main.ts prints as its one line. */
function configError(env: Record<string, string>): Error {
  try {
    loadConfig({ LISTEN_ADDR: '127.0.0.1:0', ...env });
  } catch (error) {
    return error as Error;
  }
  throw new Error(`${JSON.stringify(env)} was not refused`);
}

describe('start-up errors', () => {
  const secretFile = join(tempDir(), 'token');
  writeFileSync(secretFile, 'from-file\n');
  const spacedSecretFile = join(tempDir(), 'token');
  writeFileSync(spacedSecretFile, 'secret-value\n\n');

  it.each([
    ['no AUTH_TOKEN', {}, /AUTH_TOKEN is required/],
    ['a bad API_MODE', { AUTH_TOKEN: 't', API_MODE: 'foo' }, /API_MODE=foo is not valid; use one of: read-only, crud/],
    ['a bad STORE_BACKEND', { AUTH_TOKEN: 't', STORE_BACKEND: 'mongo' }, /STORE_BACKEND=mongo is not valid/],
    ['a bad LISTEN_ADDR', { AUTH_TOKEN: 't', LISTEN_ADDR: 'localhost' }, /LISTEN_ADDR=localhost is not valid/],
    [
      'a port out of range',
      { AUTH_TOKEN: 't', LISTEN_ADDR: '0.0.0.0:70000' },
      /LISTEN_ADDR=0.0.0.0:70000 is not valid/,
    ],
    [
      'a bad duration',
      { AUTH_TOKEN: 't', CONFIG_SYNC_INTERVAL: 'often' },
      /CONFIG_SYNC_INTERVAL=often is not a duration/,
    ],
    [
      'an unreadable AUTH_TOKEN_FILE',
      { AUTH_TOKEN_FILE: '/nonexistent/token' },
      /AUTH_TOKEN_FILE: cannot read \/nonexistent\/token: ENOENT/,
    ],
    [
      'both AUTH_TOKEN and AUTH_TOKEN_FILE',
      { AUTH_TOKEN: 't', AUTH_TOKEN_FILE: secretFile },
      /AUTH_TOKEN and AUTH_TOKEN_FILE are both set/,
    ],
    [
      'an AUTH_TOKEN with a trailing newline',
      { AUTH_TOKEN: 'secret-value\n' },
      /AUTH_TOKEN: the token contains a control character/,
    ],
    [
      'an AUTH_TOKEN with a leading space',
      { AUTH_TOKEN: ' secret-value' },
      /AUTH_TOKEN: the token has whitespace at its start or end/,
    ],
    [
      'a CRUD_AUTH_TOKEN with a trailing space',
      { AUTH_TOKEN: 't', API_MODE: 'crud', CRUD_AUTH_TOKEN: 'secret-value ' },
      /CRUD_AUTH_TOKEN: the token has whitespace/,
    ],
    [
      'an AUTH_TOKEN_FILE with two trailing newlines',
      { AUTH_TOKEN_FILE: spacedSecretFile },
      /AUTH_TOKEN_FILE \(.*\): the token contains a control character/,
    ],
    [
      'an AUTH_TOKEN with spaces inside',
      { AUTH_TOKEN: 'secret-value a b c d' },
      /AUTH_TOKEN: the token has a character a Bearer token cannot carry/,
    ],
    [
      'a CRUD_AUTH_TOKEN with a letter outside ASCII',
      { AUTH_TOKEN: 't', API_MODE: 'crud', CRUD_AUTH_TOKEN: 'secret-value-é' },
      /CRUD_AUTH_TOKEN: the token has a character/,
    ],
  ])('%s is refused with one line naming it, and no secret in it', (_name, env, expected) => {
    const error = configError(env);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(expected);
    expect(error.message).not.toContain('secret-value');
  });

  it.each([
    ['no AUTH_TOKEN', {}, /AUTH_TOKEN is required/],
    [
      'an unreadable AUTH_TOKEN_FILE',
      { AUTH_TOKEN_FILE: '/nonexistent/token' },
      /AUTH_TOKEN_FILE: cannot read \/nonexistent\/token: ENOENT/,
    ],
    [
      'an AUTH_TOKEN with a trailing newline',
      { AUTH_TOKEN: 'secret-value\n' },
      /AUTH_TOKEN: the token contains a control character/,
    ],
    [
      'a missing config repo',
      { AUTH_TOKEN: 't', CONFIG_REPO: '/nonexistent/repo' },
      /CONFIG_REPO \/nonexistent\/repo is not a directory/,
    ],
    [
      'a missing seed file',
      { AUTH_TOKEN: 't', STORE_BACKEND: 'memory', SEED_FILE: '/nonexistent/seed.json' },
      /SEED_FILE \/nonexistent\/seed.json cannot be read: ENOENT/,
    ],
    [
      'a missing OpenAPI file',
      { AUTH_TOKEN: 't', OPENAPI_FILE: '/nonexistent/openapi.yaml' },
      /OPENAPI_FILE \/nonexistent\/openapi.yaml cannot be read/,
    ],
  ])('%s stops the real start with one line and no stack trace', (_name, env, expected) => {
    const result = runMain({ LISTEN_ADDR: '127.0.0.1:0', ...env });
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gitops-config-api: /);
    expect(lines[0]).toMatch(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain('secret-value');
  });

  it('an invalid seed file names the problem', () => {
    const seed = join(tempDir(), 'seed.json');
    writeFileSync(
      seed,
      JSON.stringify({ clusters: [{ _id: 'c', cluster_name: 'c', cluster_dns: 'c.x', environment: 'staging' }] }),
    );
    const result = runMain({ AUTH_TOKEN: 't', STORE_BACKEND: 'memory', SEED_FILE: seed, LISTEN_ADDR: '127.0.0.1:0' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      `gitops-config-api: SEED_FILE ${seed} is invalid: /clusters/0/environment: must be one of: dev, qa, uat, prod`,
    );
  });

  it('a port already in use is one line too', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    const result = runMain({
      AUTH_TOKEN: 't',
      STORE_BACKEND: 'memory',
      SEED_FILE: 'data/seed.json',
      LISTEN_ADDR: `127.0.0.1:${port}`,
    });
    blocker.close();
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(`gitops-config-api: cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
  });
});

describe('running', () => {
  it(
    'starts on the bundled example with only AUTH_TOKEN, ' + 'reads the token from a file, and stops on SIGTERM',
    async () => {
      const tokenFile = join(tempDir(), 'token');
      writeFileSync(tokenFile, 'file-token\n');
      const child = spawn(process.execPath, [MAIN], {
        cwd: join(import.meta.dirname, '..'),
        env: { ...BASE_ENV, AUTH_TOKEN_FILE: tokenFile, LISTEN_ADDR: '127.0.0.1:0' },
      });
      let out = '';
      child.stdout.on('data', (c) => (out += String(c)));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line in: ${out}`)), 10_000);
        child.stdout.on('data', () => {
          const match = /"listen":"([^"]+)".*"msg":"gitops-config-api started"/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(`http://${match[1]}`);
          }
        });
      });
      expect(out).toContain('"backend":"git"');
      expect(out).toContain('"mode":"read-only"');
      const res = await request(url, '/api/v2/gitops/clusters', { token: 'file-token' });
      expect(res.status).toBe(200);
      expect(res.json().inputs.length).toBeGreaterThanOrEqual(3);

      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(out).toContain('shutting down');
      expect(out).not.toContain('file-token');
    },
  );
});

describe('crud mode and the write token', () => {
  const warning = (service: TestService) =>
    service.logs.filter((line) => line.level === 40 && String(line.msg).includes('CRUD_AUTH_TOKEN'));

  it.each([
    ['unset', {}],
    ['empty', { CRUD_AUTH_TOKEN: '' }],
    ['equal to AUTH_TOKEN', { CRUD_AUTH_TOKEN: 'shared-token' }],
  ])('starts with CRUD_AUTH_TOKEN %s, warning that every poller could write', async (_name, env) => {
    const service = await startTestService({
      STORE_BACKEND: 'memory',
      SEED_FILE: asSeedFile(),
      API_MODE: 'crud',
      AUTH_TOKEN: 'shared-token',
      ...env,
    });
    try {
      expect((await request(service.url, '/ready')).status).toBe(200);
      const lines = warning(service);
      expect(lines).toHaveLength(1);
      expect(lines[0].msg).toMatch(/CRUD_AUTH_TOKEN/);
      expect(service.logText()).not.toContain('shared-token');
    } finally {
      await service.close();
    }
  });

  it('does not warn with a distinct write token, nor in read-only mode', async () => {
    for (const env of [
      { API_MODE: 'crud', CRUD_AUTH_TOKEN: 'write-token-of-its-own' },
      { API_MODE: 'read-only' },
    ] as Record<string, string>[]) {
      const service = await startTestService({
        STORE_BACKEND: 'memory',
        SEED_FILE: asSeedFile(),
        AUTH_TOKEN: 'read-token-of-its-own',
        ...env,
      });
      try {
        expect(warning(service)).toEqual([]);
      } finally {
        await service.close();
      }
    }
  });
});

describe('short tokens', () => {
  const warnings = (service: TestService) =>
    service.logs
      .filter((line) => line.level === 40 && String(line.msg).includes('shorter than 16 characters'))
      .map((line) => line.msg);

  it('start, with a warning naming each short token (never its value)', async () => {
    const env = {
      STORE_BACKEND: 'memory',
      SEED_FILE: asSeedFile(),
      API_MODE: 'crud',
      AUTH_TOKEN: 'short-read',
      CRUD_AUTH_TOKEN: 'short-write',
    };
    const service = await startTestService(env);
    try {
      expect((await request(service.url, '/api/v2/gitops/clusters', { token: 'short-read' })).status).toBe(200);
      const lines = warnings(service);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^AUTH_TOKEN is shorter than 16 characters/);
      expect(lines[1]).toMatch(/^CRUD_AUTH_TOKEN is shorter than 16 characters/);
      expect(service.logText()).not.toContain('short-read');
      expect(service.logText()).not.toContain('short-write');
    } finally {
      await service.close();
    }
  });

  it('a token of 16 characters or more is not warned about', async () => {
    const service = await startTestService({
      STORE_BACKEND: 'memory',
      SEED_FILE: asSeedFile(),
      AUTH_TOKEN: '0123456789abcdef',
    });
    try {
      expect(warnings(service)).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
