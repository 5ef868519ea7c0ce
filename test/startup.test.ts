// The real entry point (src/main.ts) as a child process: start-up errors are one clear line,
// and SIGTERM stops the service cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/git-fixture.ts';
import { request } from './helpers/http.ts';

const MAIN = join(import.meta.dirname, '..', 'src', 'main.ts');
const BASE_ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

function runMain(env: Record<string, string>) {
  return spawnSync(process.execPath, [MAIN], { env: { ...BASE_ENV, ...env }, encoding: 'utf8', timeout: 15_000 });
}

describe('start-up errors', () => {
  const secretFile = join(tempDir(), 'token');
  writeFileSync(secretFile, 'from-file\n');

  it.each([
    ['no AUTH_TOKEN', {}, /AUTH_TOKEN is required/],
    ['a bad API_MODE', { AUTH_TOKEN: 't', API_MODE: 'foo' }, /API_MODE=foo is not valid; use one of: read-only, crud/],
    ['a bad STORE_BACKEND', { AUTH_TOKEN: 't', STORE_BACKEND: 'mongo' }, /STORE_BACKEND=mongo is not valid/],
    ['a bad LISTEN_ADDR', { AUTH_TOKEN: 't', LISTEN_ADDR: 'localhost' }, /LISTEN_ADDR=localhost is not valid/],
    ['a port out of range', { AUTH_TOKEN: 't', LISTEN_ADDR: '0.0.0.0:70000' }, /LISTEN_ADDR=0.0.0.0:70000 is not valid/],
    ['a bad duration', { AUTH_TOKEN: 't', CONFIG_SYNC_INTERVAL: 'often' }, /CONFIG_SYNC_INTERVAL=often is not a duration/],
    ['an unreadable AUTH_TOKEN_FILE', { AUTH_TOKEN_FILE: '/nonexistent/token' }, /AUTH_TOKEN_FILE: cannot read \/nonexistent\/token: ENOENT/],
    ['both AUTH_TOKEN and AUTH_TOKEN_FILE', { AUTH_TOKEN: 't', AUTH_TOKEN_FILE: secretFile }, /AUTH_TOKEN and AUTH_TOKEN_FILE are both set/],
    ['a missing config repo', { AUTH_TOKEN: 't', CONFIG_REPO: '/nonexistent/repo' }, /CONFIG_REPO \/nonexistent\/repo is not a directory/],
    ['a missing seed file', { AUTH_TOKEN: 't', STORE_BACKEND: 'memory', SEED_FILE: '/nonexistent/seed.json' }, /SEED_FILE \/nonexistent\/seed.json cannot be read: ENOENT/],
    ['a missing OpenAPI file', { AUTH_TOKEN: 't', OPENAPI_FILE: '/nonexistent/openapi.yaml' }, /OPENAPI_FILE \/nonexistent\/openapi.yaml cannot be read/],
  ])('%s stops the start with one line and no stack trace', (_name, env, expected) => {
    const result = runMain({ LISTEN_ADDR: '127.0.0.1:0', ...env } as Record<string, string>);
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gitops-config-api: /);
    expect(lines[0]).toMatch(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('an invalid seed file names the problem', () => {
    const seed = join(tempDir(), 'seed.json');
    writeFileSync(seed, JSON.stringify({ clusters: [{ _id: 'c', cluster_name: 'c', cluster_dns: 'c.x', environment: 'staging' }] }));
    const result = runMain({ AUTH_TOKEN: 't', STORE_BACKEND: 'memory', SEED_FILE: seed, LISTEN_ADDR: '127.0.0.1:0' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(`gitops-config-api: SEED_FILE ${seed} is invalid: /clusters/0/environment: must be one of: dev, qa, uat, prod`);
  });

  it('a port already in use is one line too', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    const result = runMain({ AUTH_TOKEN: 't', STORE_BACKEND: 'memory', SEED_FILE: 'data/seed.json', LISTEN_ADDR: `127.0.0.1:${port}` });
    blocker.close();
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(`gitops-config-api: cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
  });
});

describe('running', () => {
  it('starts on the bundled example with only AUTH_TOKEN, reads the token from a file, and stops on SIGTERM', async () => {
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
  });
});
