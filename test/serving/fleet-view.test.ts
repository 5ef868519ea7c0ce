// GET /api/v2/gitops/fleet on the real server (local Git backend): which cluster polled what,
// whether it has the current bodies, and the same counts in gitops_config_fleet_clusters.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PreparedBackend, prepareBackend } from '../helpers/backends.ts';
import { fixtureData } from '../helpers/fixture-data.ts';
import { commitAll, writeFiles } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { published } from '../helpers/store-events.ts';

const FLEET = '/api/v2/gitops/fleet';
const ENDPOINTS = ['platform-components', 'namespaces', 'rolebindings'] as const;
const path = (dns: string, endpoint: (typeof ENDPOINTS)[number]) => `/api/v2/gitops/clusters/${dns}/${endpoint}`;

const cluster = (id: string, components: string[], namespaces: string[]) => ({
  id,
  cluster_name: id,
  cluster_dns: `${id}.k8s.example.com`,
  environment: 'dev',
  platform_components: components.map((c) => ({ id: c, enabled: true })),
  namespaces: namespaces.map((n) => ({ id: n })),
  rolebindings: [{ id: 'viewers' }],
});

/** alpha and gamma use podinfo, beta does not; delta never polls. */
const data = {
  ...fixtureData,
  clusters: [
    cluster('alpha', ['podinfo'], ['team-a']),
    cluster('beta', ['traefik', 'cert-manager'], ['team-b']),
    cluster('gamma', ['podinfo', 'traefik', 'cert-manager'], []),
    cluster('delta', ['podinfo'], ['team-a']),
  ],
};
const podinfo = fixtureData.platform_components.find((c) => c.id === 'podinfo')!;

let prepared: PreparedBackend;
let service: TestService;
beforeEach(async () => {
  prepared = await prepareBackend('git', data);
  service = await startTestService(prepared.env);
});
afterEach(() => service.close());

const poll = (id: string, endpoint: (typeof ENDPOINTS)[number], headers: Record<string, string> = {}, method = 'GET') =>
  request(service.url, path(`${id}.k8s.example.com`, endpoint), { token: READ_TOKEN, headers, method });

/** The fleet view, checked against the OpenAPI schema, against its own summary and against the gauge of /metrics. */
async function fleet(query = ''): Promise<{ summary: Record<string, number>; clusters: any[]; revision: string }> {
  const res = await request(service.url, `${FLEET}${query}`, { token: READ_TOKEN });
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  const view = res.json();
  await expectMatchesOpenApi('get', FLEET, 200, view);
  if (query === '') {
    const counted = { up_to_date: 0, behind: 0, never_seen: 0 } as Record<string, number>;
    for (const c of view.clusters) counted[c.state]++;
    expect(view.summary).toEqual({ clusters: view.clusters.length, ...counted });
  }
  const metrics = parsePrometheusText((await request(service.url, '/metrics')).text);
  for (const state of ['up_to_date', 'behind', 'never_seen']) {
    expect(sampleValue(metrics, 'gitops_config_fleet_clusters', { state }), state).toBe(view.summary[state]);
  }
  return view;
}

const states = (view: { clusters: { id: string; state: string }[] }) =>
  Object.fromEntries(view.clusters.map((c) => [c.id, c.state]));

describe('the fleet view', () => {
  it('shows every cluster never_seen before any poll', async () => {
    const view = await fleet();
    expect(view.summary).toEqual({ clusters: 4, up_to_date: 0, behind: 0, never_seen: 4 });
    expect(view.clusters.map((c) => c.id)).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    expect(view.clusters[0]).toEqual({
      id: 'alpha',
      cluster_dns: 'alpha.k8s.example.com',
      state: 'never_seen',
      up_to_date: false,
      last_seen: null,
      endpoints: Object.fromEntries(
        ENDPOINTS.map((e) => [e, { last_poll: null, etag_served: null, etag_current: null, up_to_date: null }]),
      ),
    });
  });

  it(
    'marks a cluster up_to_date once its polls got the current bodies (a 304 too; a HEAD, an error or the listing ' +
      'not)',
    async () => {
      const started = Date.now();
      const polled: Record<string, string> = {};
      for (const endpoint of ENDPOINTS) polled[endpoint] = (await poll('alpha', endpoint)).headers.etag as string;
      await poll('beta', 'platform-components', { 'accept-encoding': 'gzip' });
      // beta asks whether the namespaces it holds are current: the 304 is a poll that got them.
      const tag = (await poll('beta', 'namespaces', {}, 'HEAD')).headers.etag as string;
      expect((await poll('beta', 'namespaces', { 'if-none-match': tag })).status).toBe(304);
      await poll('delta', 'platform-components', {}, 'HEAD');
      await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
      await request(service.url, path('nobody.k8s.example.com', 'namespaces'), { token: READ_TOKEN });
      await request(service.url, path('gamma.k8s.example.com', 'namespaces'), {});

      const view = await fleet();
      expect(states(view)).toEqual({
        alpha: 'up_to_date',
        beta: 'up_to_date',
        delta: 'never_seen',
        gamma: 'never_seen',
      });
      expect(view.summary).toEqual({ clusters: 4, up_to_date: 2, behind: 0, never_seen: 2 });
      const alpha = view.clusters.find((c) => c.id === 'alpha');
      expect(alpha.up_to_date).toBe(true);
      for (const endpoint of ENDPOINTS) {
        expect(alpha.endpoints[endpoint]).toMatchObject({
          etag_served: polled[endpoint],
          etag_current: polled[endpoint],
          up_to_date: true,
        });
        expect(Date.parse(alpha.endpoints[endpoint].last_poll)).toBeGreaterThanOrEqual(started - 5);
      }
      expect(alpha.last_seen).toBe(alpha.endpoints.rolebindings.last_poll);
      const beta = view.clusters.find((c) => c.id === 'beta');
      expect(beta.endpoints.namespaces).toMatchObject({ etag_served: tag, up_to_date: true });
      // The identity tag, also for a gzip poll.
      expect(beta.endpoints['platform-components'].etag_served).toMatch(/^"[^"]+"$/);
      expect(beta.endpoints.rolebindings).toEqual({
        last_poll: null,
        etag_served: null,
        etag_current: null,
        up_to_date: null,
      });
    },
  );

  it(
    'after a catalog change, marks behind the clusters that reference it until they poll again; the others stay ' +
      'up_to_date',
    async () => {
      for (const id of ['alpha', 'beta', 'gamma']) for (const endpoint of ENDPOINTS) await poll(id, endpoint);
      expect(states(await fleet())).toEqual({
        alpha: 'up_to_date',
        beta: 'up_to_date',
        gamma: 'up_to_date',
        delta: 'never_seen',
      });

      writeFiles(prepared.dir!, { 'platform_components/podinfo.yaml': { ...podinfo, component_version: '6.8.0' } });
      const revision = commitAll(prepared.dir!, 'podinfo 6.8.0');
      await published(service, revision);

      const after = await fleet();
      expect(after.revision).toBe(revision);
      expect(states(after)).toEqual({ alpha: 'behind', beta: 'up_to_date', gamma: 'behind', delta: 'never_seen' });
      expect(after.summary).toEqual({ clusters: 4, up_to_date: 1, behind: 2, never_seen: 1 });
      const alpha = after.clusters.find((c) => c.id === 'alpha');
      expect(alpha.up_to_date).toBe(false);
      expect(alpha.endpoints['platform-components'].up_to_date).toBe(false);
      expect(alpha.endpoints['platform-components'].etag_current).not.toBe(
        alpha.endpoints['platform-components'].etag_served,
      );
      expect(alpha.endpoints.namespaces.up_to_date).toBe(true);

      expect((await fleet('?state=behind')).clusters.map((c) => c.id)).toEqual(['alpha', 'gamma']);
      expect((await fleet('?state=up_to_date')).clusters.map((c) => c.id)).toEqual(['beta']);
      const neverSeen = await fleet('?state=never_seen');
      expect(neverSeen.clusters.map((c) => c.id)).toEqual(['delta']);
      expect(neverSeen.summary).toEqual(after.summary);

      const fresh = await poll('alpha', 'platform-components');
      expect(fresh.headers.etag).toBe(alpha.endpoints['platform-components'].etag_current);
      expect(states(await fleet())).toEqual({
        alpha: 'up_to_date',
        beta: 'up_to_date',
        gamma: 'behind',
        delta: 'never_seen',
      });
    },
  );

  it('forgets a removed cluster', async () => {
    for (const id of ['alpha', 'gamma']) await poll(id, 'namespaces');
    rmSync(join(prepared.dir!, 'clusters/gamma.yaml'));
    const revision = commitAll(prepared.dir!, 'decommission gamma');
    await published(service, revision);
    const view = await fleet();
    expect(states(view)).toEqual({ alpha: 'up_to_date', beta: 'never_seen', delta: 'never_seen' });
    expect(view.summary.clusters).toBe(3);
  });

  it('needs the read token, and refuses an unknown state or parameter like the other query errors', async () => {
    expect((await request(service.url, FLEET, {})).status).toBe(401);
    for (const query of ['?state=stale', '?state=behind&state=up_to_date', '?colour=red']) {
      const res = await request(service.url, `${FLEET}${query}`, { token: READ_TOKEN });
      expect(res.status, query).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'bad_request',
        details: [expect.objectContaining({ path: query.slice(1).split('=')[0] })],
      });
      await expectMatchesOpenApi('get', FLEET, 400, res.json());
    }
    const post = await request(service.url, FLEET, { token: READ_TOKEN, method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});
