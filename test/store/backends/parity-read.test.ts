// The read API, written once and run against the git, memory and sqlite backends; then, for
// three data sets, every read response of the three backends compared byte for byte.
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src/domain/records.ts';
import {
  type Backend,
  BACKENDS,
  type DataSet,
  exampleRepoData,
  exampleRepoFiles,
  prepareBackend,
  referenceSeedData,
  startBackend,
} from '../../helpers/backends.ts';
import type { RepoFiles } from '../../helpers/git-fixture.ts';
import { fixtureData } from '../../helpers/fixture-data.ts';
import { request } from '../../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';
const REVISION_FORMAT: Record<Backend, RegExp> = {
  git: /^[0-9a-f]{40}$/,
  'git-remote': /^[0-9a-f]{40}$/,
  memory: /^seed-[0-9a-f]{12}$/,
  sqlite: /^[1-9][0-9]*$/,
};

describe.each(BACKENDS)('read API on the %s backend', (backend) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startBackend(backend);
  });
  afterAll(async () => {
    await service?.close();
  });

  it('serves the merged inputs in the order of the cluster references, skipping dangling ones', async () => {
    const res = await request(service.url, PC, { token: READ_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const body = res.json();
    expect(body.inputs.map((i: { id: string }) => i.id)).toEqual(['podinfo', 'cert-manager', 'traefik']);
    expect(body.inputs[0]).toEqual({
      id: 'podinfo',
      component_path: 'podinfo',
      component_version: '6.7.1',
      cluster_env_enabled: false,
      depends_on: [],
      enabled: true,
      patches: { 'ui.message': 'Grüße «prod» — it\'s "live"', replicaCount: '3' },
      cluster: { name: 'cluster-one', dns: 'c1.k8s.example.com', environment: 'prod' },
      source: { oci_url: 'oci://ghcr.io/stefanprodan/charts', oci_tag: '6.7.2-hotfix' },
    });
    // Key order of patches and labels comes back exactly as written.
    expect(Object.keys(body.inputs[0].patches)).toEqual(['ui.message', 'replicaCount']);
    const ns = (
      await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', { token: READ_TOKEN })
    ).json();
    expect(ns.inputs.map((i: { id: string }) => i.id)).toEqual(['team-b', 'team-a']);
    expect(Object.keys(ns.inputs[1].labels)).toEqual(['team', 'app.kubernetes.io/part-of']);
    const rb = (
      await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/rolebindings', { token: READ_TOKEN })
    ).json();
    expect(rb.inputs.map((i: { id: string }) => i.id)).toEqual(['viewers', 'admins']);
    expect(rb.inputs[1].subjects).toEqual([
      { kind: 'Group', name: 'platform', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'ServiceAccount', name: 'ci', apiGroup: '' },
    ]);
  });

  it('serves an empty list (not an error) for a cluster that really has no items', async () => {
    for (const endpoint of ['platform-components', 'namespaces', 'rolebindings']) {
      const res = await request(service.url, `/api/v2/gitops/clusters/bare.example.com/${endpoint}`, {
        token: READ_TOKEN,
      });
      expect(res.status).toBe(200);
      expect(res.text).toBe('{"inputs":[]}');
    }
  });

  it('matches the cluster DNS case-insensitively and ignores one trailing dot', async () => {
    const exact = await request(service.url, PC, { token: READ_TOKEN });
    for (const dns of ['C1.K8S.Example.com', 'c1.k8s.example.com.']) {
      const res = await request(service.url, `/api/v2/gitops/clusters/${dns}/platform-components`, {
        token: READ_TOKEN,
      });
      expect(res.status, dns).toBe(200);
      expect(res.body.equals(exact.body)).toBe(true);
    }
    const twoDots = await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com../platform-components', {
      token: READ_TOKEN,
    });
    expect(twoDots.status).toBe(404);
  });

  it(
    'folds only ASCII letters: the Kelvin sign (U+212A), ' + 'which Unicode lower-cases to "k", names no cluster',
    async () => {
      for (const endpoint of ['platform-components', 'namespaces', 'rolebindings']) {
        const res = await request(service.url, `/api/v2/gitops/clusters/c1.%E2%84%AA8s.example.com/${endpoint}`, {
          token: READ_TOKEN,
        });
        expect(res.status, endpoint).toBe(404);
        expect(res.json()).toEqual({
          error: 'not_found',
          message: 'no cluster has cluster_dns "c1.\u212a8s.example.com"',
        });
      }
      // The same path again: a refused lookup is not remembered as an answer either.
      const again = await request(service.url, '/api/v2/gitops/clusters/c1.%E2%84%AA8S.example.com/namespaces', {
        token: READ_TOKEN,
      });
      expect(again.status).toBe(404);
    },
  );

  it('answers 404 with an error body for an unknown cluster or endpoint', async () => {
    const res = await request(service.url, '/api/v2/gitops/clusters/nope.example.com/namespaces', {
      token: READ_TOKEN,
    });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'no cluster has cluster_dns "nope.example.com"' });
    const endpoint = await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/secrets', {
      token: READ_TOKEN,
    });
    expect(endpoint.status).toBe(404);
    expect(endpoint.json().error).toBe('not_found');
  });

  it('lists all clusters sorted by id', async () => {
    const res = await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
    expect(res.json()).toEqual({
      inputs: [
        { id: 'c0', cluster_name: 'bare', cluster_dns: 'Bare.Example.COM', environment: 'dev' },
        { id: 'c1', cluster_name: 'cluster-one', cluster_dns: 'c1.k8s.example.com', environment: 'prod' },
      ],
    });
  });

  it('carries an ETag and X-Config-Revision, and answers If-None-Match with 304', async () => {
    const first = await request(service.url, PC, { token: READ_TOKEN });
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['x-config-revision']).toMatch(REVISION_FORMAT[backend]);
    const again = await request(service.url, PC, {
      token: READ_TOKEN,
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const other = await request(service.url, PC, {
      token: READ_TOKEN,
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(other.status).toBe(200);
  });

  it('sends gzip when asked, with its own ETag, and the same JSON inside', async () => {
    const plain = await request(service.url, PC, { token: READ_TOKEN });
    const gz = await request(service.url, PC, { token: READ_TOKEN, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    for (const header of ['gzip;q=0', '*, gzip;q=0', 'gzip;q=0, *', 'identity;q=1, gzip;q=0.5']) {
      const refused = await request(service.url, PC, { token: READ_TOKEN, headers: { 'accept-encoding': header } });
      expect(refused.headers['content-encoding'], header).toBeUndefined();
      expect(refused.body.equals(plain.body), header).toBe(true);
    }
    for (const header of ['*', 'deflate, gzip;q=0.8', 'identity;q=0, *']) {
      const accepted = await request(service.url, PC, { token: READ_TOKEN, headers: { 'accept-encoding': header } });
      expect(accepted.headers['content-encoding'], header).toBe('gzip');
    }
    const revalidated = await request(service.url, PC, {
      token: READ_TOKEN,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag! },
    });
    expect(revalidated.status).toBe(304);
  });

  it('answers HEAD with headers only and other methods with 405', async () => {
    const head = await request(service.url, PC, { method: 'HEAD', token: READ_TOKEN });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await request(service.url, PC, { method: 'POST', token: READ_TOKEN });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.json().error).toBe('method_not_allowed');
  });

  it.each([
    ['no token', undefined],
    ['a wrong token', 'Bearer wrong'],
    ['the token without Bearer', READ_TOKEN],
  ])('refuses %s with 401', async (_name, header) => {
    const res = await request(service.url, PC, { headers: header === undefined ? {} : { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.json().error).toBe('unauthorized');
  });

  it('/ready names the backend and the revision that is served', async () => {
    const ready = (await request(service.url, '/ready')).json();
    // STORE_BACKEND=git serves a local directory and a remote repository alike.
    expect(ready).toMatchObject({
      status: 'ok',
      backend: backend === 'git-remote' ? 'git' : backend,
      stale: false,
      clusters: 2,
      last_load: { ok: true },
    });
    const served = await request(service.url, PC, { token: READ_TOKEN });
    expect(ready.revision).toBe(served.headers['x-config-revision']);
  });

  it('REST paths in read-only mode answer 404 naming API_MODE=crud', async () => {
    for (const path of ['/clusters', '/clusters/c1', '/platform_components', '/namespaces/x', '/rolebindings']) {
      const res = await request(service.url, path, { token: READ_TOKEN });
      expect(res.status, path).toBe(404);
      expect(res.json().message).toContain('API_MODE=crud');
    }
    const post = await request(service.url, '/clusters', {
      method: 'POST',
      token: READ_TOKEN,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(post.status).toBe(404);
  });
});

/** Every read request worth comparing for a data set: each cluster and endpoint, by several spellings, and errors. */
function readPaths(data: DataSet): string[] {
  const paths = [
    '/api/v2/gitops/clusters',
    '/api/v2/gitops/clusters/unknown.example.com/namespaces',
    '/api/v2/gitops/clusters/x/nope',
  ];
  for (const cluster of data.clusters as Cluster[]) {
    for (const dns of [cluster.cluster_dns, cluster.cluster_dns.toUpperCase(), `${cluster.cluster_dns}.`]) {
      for (const endpoint of ['platform-components', 'namespaces', 'rolebindings']) {
        paths.push(`/api/v2/gitops/clusters/${encodeURIComponent(dns)}/${endpoint}`);
      }
    }
  }
  return paths;
}

const DATA_SETS: [string, () => DataSet, (() => RepoFiles) | undefined][] = [
  ['test fixture', () => fixtureData, undefined],
  ['data/seed.json', referenceSeedData, undefined],
  // The Git backends serve the example's own files (comments, left-out ids and all); the local
  // one serves the folder itself, which is no Git repository of its own.
  ['config-repo-example', exampleRepoData, exampleRepoFiles],
];

describe.each(DATA_SETS)('the %s data set', (_name, load, files) => {
  const services = {} as Record<Backend, TestService>;
  const data = load();
  beforeAll(async () => {
    await Promise.all(
      BACKENDS.map(async (backend) => {
        if (backend === 'git' && files) {
          services[backend] = await startTestService({
            STORE_BACKEND: 'git',
            CONFIG_REPO: join(import.meta.dirname, '../../..', 'config-repo-example'),
          });
        } else {
          services[backend] = await startTestService((await prepareBackend(backend, data, files?.())).env);
        }
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(BACKENDS.map((b) => services[b]?.close()));
  });

  it('gives byte-identical read responses on every backend', async () => {
    const paths = readPaths(data);
    expect(paths.length).toBeGreaterThan(3);
    let compared = 0;
    for (const path of paths) {
      for (const variant of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
        const [git, ...others] = await Promise.all(
          BACKENDS.map((b) => request(services[b].url, path, { token: READ_TOKEN, headers: variant })),
        );
        for (const [index, other] of others.entries()) {
          const name = BACKENDS[index + 1];
          const where = `${path} ${JSON.stringify(variant)} git vs ${name}`;
          expect(other.status, where).toBe(git.status);
          expect(other.headers['content-type'], where).toBe(git.headers['content-type']);
          expect(other.headers['content-encoding'], where).toBe(git.headers['content-encoding']);
          expect(other.headers.etag, where).toBe(git.headers.etag);
          expect(other.body.equals(git.body), where).toBe(true);
        }
        compared++;
      }
      // The ETag of one backend revalidates on the others: the same data gives the same tag.
      const again = await request(services.git.url, path, { token: READ_TOKEN });
      const first = await request(services.git.url, path, { token: READ_TOKEN });
      expect(again.body.equals(first.body), `${path}: two requests, same bytes`).toBe(true);
      const tag = again.headers.etag;
      if (tag) {
        for (const backend of BACKENDS.filter((b) => b !== 'git')) {
          const res = await request(services[backend].url, path, {
            token: READ_TOKEN,
            headers: { 'if-none-match': tag },
          });
          expect(res.status, `${path} on ${backend}`).toBe(304);
        }
      }
    }
    expect(compared).toBe(paths.length * 2);
  });

  it('serves every cluster with content on each backend (the comparison is not between empty answers)', async () => {
    const list = (await request(services.sqlite.url, '/api/v2/gitops/clusters', { token: READ_TOKEN })).json();
    expect(list.inputs).toHaveLength(data.clusters.length);
    expect(data.clusters.length).toBeGreaterThan(0);
  });
});
