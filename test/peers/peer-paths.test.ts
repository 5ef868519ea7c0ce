// The peer paths on the real server: they take PEER_TOKEN and nothing else, PEER_TOKEN is
// taken nowhere else, and without PEERS they do not exist. An announcement is answered at
// once: a revision served or known as older (Git ancestry, SQLite counters) changes nothing;
// one not known makes the replica fetch and hold its polls until that fetch ends. The
// replica finds itself among its peers by its instance id.
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBackend } from '../helpers/backends.ts';
import { commitAll, writeFiles } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { freePorts } from '../helpers/replica-set.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const PEER_TOKEN = 'peer-token-of-the-replicas-1c9d';
const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';
const services: TestService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

/** A crud service on a local Git repo whose PEERS are itself and a port nothing listens on. */
async function startWithPeers(extra: Record<string, string> = {}): Promise<{ service: TestService; dir: string; self: string; absent: string }> {
  const prepared = await prepareBackend('git');
  const [own, nobody] = await freePorts(2);
  const self = `http://127.0.0.1:${own}`;
  const absent = `http://127.0.0.1:${nobody}`;
  const service = await startTestService({
    ...prepared.env,
    API_MODE: 'crud',
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
    LISTEN_ADDR: `127.0.0.1:${own}`,
    PEERS: `${self},${absent}`,
    PEER_TOKEN,
    ...extra,
  });
  services.push(service);
  return { service, dir: prepared.dir!, self, absent };
}

const announce = (service: TestService, revision: string, from = 'another-replica') =>
  request(service.url, `/peers/v1/announce?revision=${revision}&from=${from}`, { method: 'POST', token: PEER_TOKEN });

describe('the peer paths', () => {
  it('take PEER_TOKEN and nothing else; PEER_TOKEN opens nothing else', async () => {
    const { service } = await startWithPeers();
    for (const token of [undefined, READ_TOKEN, WRITE_TOKEN, `${PEER_TOKEN}x`]) {
      for (const [method, path] of [['GET', '/peers/v1/polls?from=x'], ['POST', '/peers/v1/sync?from=x'], ['POST', '/peers/v1/announce?revision=abc&from=x']]) {
        const res = await request(service.url, path!, { method, token });
        expect(res.status, `${method} ${path} with ${token ?? 'no token'}`).toBe(401);
      }
    }
    const polls = await request(service.url, '/peers/v1/polls?from=x', { token: PEER_TOKEN, headers: { 'accept-encoding': 'gzip' } });
    expect(polls.status).toBe(200);
    expect(polls.headers['content-encoding']).toBe('gzip');
    const records = JSON.parse(gunzipSync(polls.body).toString('utf8'));
    await expectMatchesOpenApi('get', '/peers/v1/polls', 200, records);
    expect(records).toMatchObject({ endpoints: ['platform-components', 'namespaces', 'rolebindings'], polls: [] });
    for (const [method, path] of [['GET', NS], ['GET', '/api/v2/gitops/fleet'], ['GET', '/clusters'], ['PATCH', '/namespaces/team-b']]) {
      expect((await request(service.url, path!, { method, token: PEER_TOKEN })).status, `${method} ${path}`).toBe(401);
    }
    expect((await request(service.url, '/ready', { token: PEER_TOKEN })).json().view).toBe('public');
  });

  it('do not exist without PEERS, whatever the token', async () => {
    const prepared = await prepareBackend('git');
    const service = await startTestService({ ...prepared.env, PEER_TOKEN });
    services.push(service);
    for (const token of [PEER_TOKEN, READ_TOKEN]) expect((await request(service.url, '/peers/v1/polls?from=x', { token })).status).toBe(404);
    const metrics = await request(service.url, '/metrics');
    expect(metrics.text).not.toContain('gitops_config_peer');
  });

  it('answer an announcement at once: served or older changes nothing, unknown is fetched with polls held; the replica knows itself', async () => {
    const { service, dir, self, absent } = await startWithPeers();
    const first = service.store.published()!.snapshot.revision;
    writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { step: 'two' } } });
    const second = commitAll(dir, 'step two');
    await service.store.reload('test');
    expect(service.store.published()!.snapshot.revision).toBe(second);

    for (const revision of [second, first]) {
      const res = await announce(service, revision);
      expect(res.json(), revision).toMatchObject({ revision: second, catching_up: false });
      await expectMatchesOpenApi('post', '/peers/v1/announce', 200, res.json());
    }
    const unknown = 'f'.repeat(40);
    const held = await announce(service, unknown);
    expect(held.json()).toMatchObject({ revision: second, catching_up: true });
    // The poll waits for the fetch the announcement started, which finds nothing newer here.
    expect((await request(service.url, NS, { token: READ_TOKEN })).headers['x-config-revision']).toBe(second);
    expect(service.logs.some((l) => l.msg === 'a peer announced a newer revision: fetching it; polls wait until it is served here')).toBe(true);

    // Its own announcement came back to it: its URL is skipped from then on; the absent one is counted.
    const metrics = parsePrometheusText((await request(service.url, '/metrics')).text);
    expect(sampleValue(metrics, 'gitops_config_peers', {})).toBe(1);
    expect(sampleValue(metrics, 'gitops_config_peer_errors_total', { reason: 'unreachable' })).toBeGreaterThan(0);
    expect(metrics.get('gitops_config_fleet_clusters')!.help).toContain('this replica');
    expect(service.logs.some((l) => l.peer === absent && l.reason === 'unreachable')).toBe(true);
    expect(service.logs.some((l) => l.peer === self)).toBe(false);
    const fleet = (await request(service.url, '/api/v2/gitops/fleet', { token: READ_TOKEN })).json();
    expect(fleet.peers).toEqual({ answered: [], missing: [{ url: absent, reason: 'unreachable' }] });
  });

  it('name a peer that takes another PEER_TOKEN as refused, and count it', async () => {
    const prepared = await prepareBackend('git');
    const [one, two] = await freePorts(2);
    const peers = `http://127.0.0.1:${one},http://127.0.0.1:${two}`;
    const first = await startTestService({ ...prepared.env, LISTEN_ADDR: `127.0.0.1:${one}`, PEERS: peers, PEER_TOKEN });
    services.push(first);
    services.push(await startTestService({ ...prepared.env, LISTEN_ADDR: `127.0.0.1:${two}`, PEERS: peers, PEER_TOKEN: `${PEER_TOKEN}-other` }));
    const fleet = (await request(first.url, '/api/v2/gitops/fleet', { token: READ_TOKEN })).json();
    expect(fleet.peers).toEqual({ answered: [], missing: [{ url: `http://127.0.0.1:${two}`, reason: 'refused' }] });
    const metrics = parsePrometheusText((await request(first.url, '/metrics')).text);
    expect(sampleValue(metrics, 'gitops_config_peer_errors_total', { reason: 'refused' })).toBeGreaterThan(0);
  });

  it('know a SQLite revision as older by its counter', async () => {
    const prepared = await prepareBackend('sqlite');
    const [own] = await freePorts(1);
    const service = await startTestService({ ...prepared.env, LISTEN_ADDR: `127.0.0.1:${own}`, PEERS: `http://127.0.0.1:${own}`, PEER_TOKEN });
    services.push(service);
    const served = service.store.published()!.snapshot.revision;
    expect(served).toMatch(/^\d+$/);
    expect((await announce(service, String(Number(served) - 1))).json()).toMatchObject({ catching_up: false });
    expect((await announce(service, String(Number(served) + 1))).json()).toMatchObject({ catching_up: true });
  });
});
