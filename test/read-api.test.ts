// The read API served by the real server on a loopback port, from the git and memory backends.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRepoFiles, asSeedFile } from './helpers/fixture-data.ts';
import { makeConfigRepo } from './helpers/git-fixture.ts';
import { request } from './helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from './helpers/service.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';
const ALL_PATHS = [
  '/api/v2/gitops/clusters',
  ...['c1.k8s.example.com', 'bare.example.com'].flatMap((dns) =>
    ['platform-components', 'namespaces', 'rolebindings'].map((e) => `/api/v2/gitops/clusters/${dns}/${e}`),
  ),
];

let git: TestService;
let memory: TestService;

beforeAll(async () => {
  git = await startTestService({ STORE_BACKEND: 'git', CONFIG_REPO: makeConfigRepo(asRepoFiles()) });
  memory = await startTestService({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile() });
});
afterAll(async () => {
  await git?.close();
  await memory?.close();
});

describe('read endpoints', () => {
  it('serve the merged inputs', async () => {
    const res = await request(git.url, PC, { token: READ_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const body = res.json();
    expect(body.inputs.map((i: { id: string }) => i.id)).toEqual(['podinfo', 'cert-manager', 'traefik']);
    expect(body.inputs[0].patches['ui.message']).toBe('Grüße «prod» — it\'s "live"');
  });

  it('give byte-identical responses from the git and memory backends, and across requests', async () => {
    for (const path of ALL_PATHS) {
      const a = await request(git.url, path, { token: READ_TOKEN });
      const b = await request(memory.url, path, { token: READ_TOKEN });
      const again = await request(git.url, path, { token: READ_TOKEN });
      expect(a.status, path).toBe(200);
      expect(a.body.equals(b.body), path).toBe(true);
      expect(a.body.equals(again.body), path).toBe(true);
      expect(a.headers.etag).toBe(b.headers.etag);
    }
  });

  it('serve an empty list (not an error) for a cluster that really has no items', async () => {
    const res = await request(git.url, '/api/v2/gitops/clusters/bare.example.com/namespaces', { token: READ_TOKEN });
    expect(res.text).toBe('{"inputs":[]}');
  });

  it('match the cluster DNS case-insensitively and ignore one trailing dot', async () => {
    const exact = await request(git.url, PC, { token: READ_TOKEN });
    for (const dns of ['C1.K8S.Example.com', 'c1.k8s.example.com.']) {
      const res = await request(git.url, `/api/v2/gitops/clusters/${dns}/platform-components`, { token: READ_TOKEN });
      expect(res.status, dns).toBe(200);
      expect(res.body.equals(exact.body)).toBe(true);
    }
    const twoDots = await request(git.url, '/api/v2/gitops/clusters/c1.k8s.example.com../platform-components', { token: READ_TOKEN });
    expect(twoDots.status).toBe(404);
  });

  it('answer 404 with an error body for an unknown cluster or endpoint', async () => {
    const res = await request(git.url, '/api/v2/gitops/clusters/nope.example.com/namespaces', { token: READ_TOKEN });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'no cluster has cluster_dns "nope.example.com"' });
    const endpoint = await request(git.url, '/api/v2/gitops/clusters/c1.k8s.example.com/secrets', { token: READ_TOKEN });
    expect(endpoint.status).toBe(404);
    expect(endpoint.json().error).toBe('not_found');
  });

  it('list all clusters sorted by id', async () => {
    const res = await request(memory.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
    expect(res.json()).toEqual({
      inputs: [
        { id: 'c0', cluster_name: 'bare', cluster_dns: 'Bare.Example.COM', environment: 'dev' },
        { id: 'c1', cluster_name: 'cluster-one', cluster_dns: 'c1.k8s.example.com', environment: 'prod' },
      ],
    });
  });

  it('carry an ETag and X-Config-Revision and answer If-None-Match with 304', async () => {
    const first = await request(git.url, PC, { token: READ_TOKEN });
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['x-config-revision']).toMatch(/^[0-9a-f]{40}$/);
    const again = await request(git.url, PC, { token: READ_TOKEN, headers: { 'if-none-match': first.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const other = await request(git.url, PC, { token: READ_TOKEN, headers: { 'if-none-match': '"something-else"' } });
    expect(other.status).toBe(200);
  });

  it('send gzip when asked, with its own ETag, and the same JSON inside', async () => {
    const plain = await request(git.url, PC, { token: READ_TOKEN });
    const gz = await request(git.url, PC, { token: READ_TOKEN, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    const refused = await request(git.url, PC, { token: READ_TOKEN, headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const revalidated = await request(git.url, PC, {
      token: READ_TOKEN,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag! },
    });
    expect(revalidated.status).toBe(304);
  });

  it('answer HEAD with headers only and other methods with 405', async () => {
    const head = await request(git.url, PC, { method: 'HEAD', token: READ_TOKEN });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await request(git.url, PC, { method: 'POST', token: READ_TOKEN });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.json().error).toBe('method_not_allowed');
  });
});

describe('authentication', () => {
  it.each([
    ['no token', undefined],
    ['a wrong token', 'Bearer wrong'],
    ['the right token without Bearer', READ_TOKEN],
    ['another scheme', `Basic ${Buffer.from(`user:${READ_TOKEN}`).toString('base64')}`],
    ['a token prefix', `Bearer ${READ_TOKEN.slice(0, -1)}`],
  ])('refuses %s with 401', async (_name, header) => {
    const res = await request(git.url, PC, { headers: header === undefined ? {} : { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.json().error).toBe('unauthorized');
    expect(res.headers['www-authenticate']).toContain('Bearer');
  });

  it('accepts the right token, with any case of the scheme', async () => {
    expect((await request(git.url, PC, { headers: { authorization: `Bearer ${READ_TOKEN}` } })).status).toBe(200);
    expect((await request(git.url, PC, { headers: { authorization: `bearer ${READ_TOKEN}` } })).status).toBe(200);
  });

  it('keeps /health, /ready and /openapi.yaml public', async () => {
    expect((await request(git.url, '/health')).json()).toEqual({ status: 'ok' });
    expect((await request(git.url, '/ready')).status).toBe(200);
    const doc = await request(git.url, '/openapi.yaml');
    expect(doc.status).toBe(200);
    expect(doc.headers['content-type']).toContain('application/yaml');
    expect(doc.text).toContain('openapi: 3.0');
  });

  it('never writes a token to the log', async () => {
    expect(git.logText()).not.toContain(READ_TOKEN);
  });
});

describe('service endpoints', () => {
  it('/ready reports backend, revision and the last load', async () => {
    const ready = (await request(git.url, '/ready')).json();
    expect(ready).toMatchObject({ status: 'ok', backend: 'git', stale: false, last_load: { ok: true } });
    expect(ready.revision).toMatch(/^[0-9a-f]{40}$/);
    const mem = (await request(memory.url, '/ready')).json();
    expect(mem).toMatchObject({ status: 'ok', backend: 'memory' });
    expect(mem.revision).toMatch(/^seed-[0-9a-f]{12}$/);
  });

  it('REST paths in read-only mode answer 404 naming API_MODE=crud', async () => {
    for (const path of ['/clusters', '/clusters/c1', '/platform_components', '/namespaces/x', '/rolebindings']) {
      const res = await request(git.url, path, { token: READ_TOKEN });
      expect(res.status, path).toBe(404);
      expect(res.json().message).toContain('API_MODE=crud');
    }
    const post = await request(git.url, '/clusters', { method: 'POST', token: READ_TOKEN, body: '{}', headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(404);
  });

  it('unknown paths answer 404 with an error body', async () => {
    const res = await request(git.url, '/nope');
    expect(res.status).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});
