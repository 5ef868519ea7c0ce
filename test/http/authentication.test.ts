// Authentication and the public endpoints, on the real server. (The read endpoints' own
// behaviour is tested once for every backend in test/store/backends/parity-read.test.ts.)
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { makeConfigRepo } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';
const PACKAGE_VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ STORE_BACKEND: 'git', CONFIG_REPO: makeConfigRepo(asRepoFiles()) });
});
afterAll(() => service?.close());

describe('authentication', () => {
  it.each([
    ['no token', undefined],
    ['a wrong token', 'Bearer wrong'],
    ['the right token without Bearer', READ_TOKEN],
    ['another scheme', `Digest username="u", response="${READ_TOKEN}"`],
    ['Basic with a wrong password', `Basic ${Buffer.from('user:wrong').toString('base64')}`],
    ['Basic with the token as the user name', `Basic ${Buffer.from(`${READ_TOKEN}:`).toString('base64')}`],
    ['Basic without a colon', `Basic ${Buffer.from(READ_TOKEN).toString('base64')}`],
    ['Basic that is not base64', `Basic ${READ_TOKEN}!`],
    ['a token prefix', `Bearer ${READ_TOKEN.slice(0, -1)}`],
  ])('refuses %s with 401', async (_name, header) => {
    const res = await request(service.url, PC, { headers: header === undefined ? {} : { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.json().error).toBe('unauthorized');
    expect(res.headers['www-authenticate']).toContain('Bearer');
  });

  it('accepts the right token, with any case of the scheme', async () => {
    expect((await request(service.url, PC, { headers: { authorization: `Bearer ${READ_TOKEN}` } })).status).toBe(200);
    expect((await request(service.url, PC, { headers: { authorization: `bearer ${READ_TOKEN}` } })).status).toBe(200);
  });

  it('accepts Basic credentials whose password is the token, whatever the user name', async () => {
    for (const user of ['flux', '', 'user name with spaces']) {
      const basic = Buffer.from(`${user}:${READ_TOKEN}`).toString('base64');
      const res = await request(service.url, PC, { headers: { authorization: `Basic ${basic}` } });
      expect(res.status, user).toBe(200);
    }
  });

  it('names both schemes in the challenge', async () => {
    const res = await request(service.url, PC);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="[^"]+", Basic realm="[^"]+"/);
  });

  it('keeps /health, /ready and /openapi.yaml public', async () => {
    expect((await request(service.url, '/health')).json()).toEqual({ status: 'ok', version: PACKAGE_VERSION });
    expect((await request(service.url, '/ready')).status).toBe(200);
    const doc = await request(service.url, '/openapi.yaml');
    expect(doc.status).toBe(200);
    expect(doc.headers['content-type']).toContain('application/yaml');
    expect(doc.text).toContain('openapi: 3.0');
  });

  it('never writes a token to the log', async () => {
    expect(service.logText()).not.toContain(READ_TOKEN);
  });
});

describe('unknown paths', () => {
  it('answer 404 with an error body', async () => {
    const res = await request(service.url, '/nope');
    expect(res.status).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});
