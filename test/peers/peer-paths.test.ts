// The peer paths on the real server: they take PEER_TOKEN and nothing else, PEER_TOKEN is
// taken nowhere else, and without PEERS they do not exist. An announcement of a revision
// served or known as older (Git ancestry, SQLite counters) changes nothing; one the store's
// source does not hold (made up) holds nothing and is counted; one it holds makes the replica
// hold its polls (once per revision) until it serves it. A peer's announcements are limited.
// The replica finds itself among its peers by its instance id.
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { HOLD_MS } from '../../src/peers/revision-hold.ts';
import { type PreparedBackend, prepareBackend } from '../helpers/backends.ts';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { commitAll, writeFiles } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { pushFiles } from '../helpers/remote-suite.ts';
import { freePorts } from '../helpers/replica-set.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const PEER_TOKEN = 'peer-token-of-the-replicas-1c9d';
const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';
const services: TestService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

/** A crud service on a local Git repo (or a remote) whose PEERS are itself and a port nothing listens on. */
async function startWithPeers(
  extra: Record<string, string> = {},
  backend: 'git' | 'git-remote' = 'git',
): Promise<{ service: TestService; dir: string; self: string; absent: string; prepared: PreparedBackend }> {
  const prepared = await prepareBackend(backend);
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
  return { service, dir: prepared.dir!, self, absent, prepared };
}

const announce = (service: TestService, revision: string, from = 'another-replica') =>
  request(service.url, `/peers/v1/announce?revision=${revision}&from=${from}`, { method: 'POST', token: PEER_TOKEN });

describe('the peer paths', () => {
  it('take PEER_TOKEN and nothing else; PEER_TOKEN opens nothing else', async () => {
    const { service } = await startWithPeers();
    for (const token of [undefined, READ_TOKEN, WRITE_TOKEN, `${PEER_TOKEN}x`]) {
      for (const [method, path] of [
        ['GET', '/peers/v1/polls?from=x'],
        ['POST', '/peers/v1/sync?from=x'],
        ['POST', '/peers/v1/announce?revision=abc&from=x'],
      ]) {
        const res = await request(service.url, path, { method, token });
        expect(res.status, `${method} ${path} with ${token ?? 'no token'}`).toBe(401);
      }
    }
    const polls = await request(service.url, '/peers/v1/polls?from=x', {
      token: PEER_TOKEN,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(polls.status).toBe(200);
    expect(polls.headers['content-encoding']).toBe('gzip');
    const records = JSON.parse(gunzipSync(polls.body).toString('utf8'));
    await expectMatchesOpenApi('get', '/peers/v1/polls', 200, records);
    expect(records).toMatchObject({ endpoints: ['platform-components', 'namespaces', 'rolebindings'], polls: [] });
    for (const [method, path] of [
      ['GET', NS],
      ['GET', '/api/v2/gitops/fleet'],
      ['GET', '/clusters'],
      ['PATCH', '/namespaces/team-b'],
    ]) {
      expect((await request(service.url, path, { method, token: PEER_TOKEN })).status, `${method} ${path}`).toBe(401);
    }
    expect((await request(service.url, '/ready', { token: PEER_TOKEN })).json().view).toBe('public');
  });

  it('do not exist without PEERS, whatever the token', async () => {
    const prepared = await prepareBackend('git');
    const service = await startTestService({ ...prepared.env, PEER_TOKEN });
    services.push(service);
    for (const token of [PEER_TOKEN, READ_TOKEN])
      expect((await request(service.url, '/peers/v1/polls?from=x', { token })).status).toBe(404);
    const metrics = await request(service.url, '/metrics');
    expect(metrics.text).not.toContain('gitops_config_peer');
  });

  it(
    'answer an announcement: served or older changes nothing, one the store does not hold is ignored and counted; ' +
      'the replica knows itself',
    async () => {
      const { service, dir, self, absent } = await startWithPeers();
      const first = service.store.published()!.snapshot.revision;
      writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { step: 'two' } } });
      const second = commitAll(dir, 'step two');
      await service.store.reload('test');
      expect(service.store.published()!.snapshot.revision).toBe(second);

      for (const revision of [second, first]) {
        const res = await announce(service, revision);
        expect(res.json(), revision).toMatchObject({ revision: second, catching_up: false });
        expect(res.json()).not.toHaveProperty('ignored');
        await expectMatchesOpenApi('post', '/peers/v1/announce', 200, res.json());
      }
      // Made up: the repository holds nothing newer than what is served, so nothing is held or fetched.
      const madeUp = await announce(service, 'f'.repeat(40));
      expect(madeUp.json()).toMatchObject({ revision: second, catching_up: false, ignored: 'nothing_new' });
      await expectMatchesOpenApi('post', '/peers/v1/announce', 200, madeUp.json());
      expect(service.peers!.hold.active).toBe(false);
      expect((await request(service.url, NS, { token: READ_TOKEN })).headers['x-config-revision']).toBe(second);
      expect(
        service.logs.some(
          (l) => l.msg === 'a peer announced a newer revision: fetching it; polls wait until it is served here',
        ),
      ).toBe(false);

      // Its own announcement came back to it: its URL is skipped from then on; the absent one is counted.
      const metrics = parsePrometheusText((await request(service.url, '/metrics')).text);
      expect(sampleValue(metrics, 'gitops_config_peers', {})).toBe(1);
      expect(sampleValue(metrics, 'gitops_config_peer_errors_total', { reason: 'unreachable' })).toBeGreaterThan(0);
      expect(sampleValue(metrics, 'gitops_config_peer_announcements_ignored_total', { reason: 'nothing_new' })).toBe(1);
      expect(sampleValue(metrics, 'gitops_config_peer_announcements_ignored_total', { reason: 'rate_limited' })).toBe(
        0,
      );
      expect(metrics.get('gitops_config_fleet_clusters')!.help).toContain('this replica');
      expect(service.logs.some((l) => l.peer === absent && l.reason === 'unreachable')).toBe(true);
      expect(service.logs.some((l) => l.peer === self)).toBe(false);
      const fleet = (await request(service.url, '/api/v2/gitops/fleet', { token: READ_TOKEN })).json();
      expect(fleet.peers).toEqual({ answered: [], missing: [{ url: absent, reason: 'unreachable' }] });
    },
  );

  it(
    'hold polls for a revision the remote has, once: the ' + 'poll waits for it; a refused one is not held for again',
    async () => {
      const { service, prepared } = await startWithPeers({}, 'git-remote');
      const { work } = prepared.remote!;
      const served = service.store.published()!.snapshot.revision;
      // Pushed behind the service's back (its sync interval is an hour): only the announcement tells it.
      const pushed = pushFiles(work, { 'namespaces/team-b.yaml': { labels: { step: 'pushed' } } }, 'step pushed');
      const announcedAt = performance.now();
      const held = await announce(service, pushed);
      console.log(
        `an announcement of a pushed commit answered after ${Math.round(performance.now() - announcedAt)} ms (one ` +
          `look ` +
          `at the remote's branch first)`,
      );
      expect(held.json()).toMatchObject({ revision: served, catching_up: true });
      expect(held.json()).not.toHaveProperty('ignored');
      // Held before the answer, for the revision the remote has; a poll meanwhile is answered
      // once the hold ends: when the reload it began has published the revision (or, on a
      // machine too slow to fetch in time, after HOLD_MS).
      expect(service.peers!.hold.held().map((hold) => hold.revision)).toEqual([pushed]);
      const holdEnded = service
        .peers!.hold.wait()
        .then(() => ({ at: performance.now(), serving: service.store.published()!.snapshot.revision }));
      const poll = request(service.url, NS, { token: READ_TOKEN }).then((res) => ({ res, at: performance.now() }));
      const [ended, { res: polled, at: answered }] = await Promise.all([holdEnded, poll]);
      expect(answered).toBeGreaterThanOrEqual(ended.at);
      expect(polled.headers['x-config-revision']).toBe(ended.serving);
      // Ended before HOLD_MS: by the reload, which published the pushed revision first.
      if (ended.at - announcedAt < HOLD_MS - 100) expect(ended.serving).toBe(pushed);
      await service.store.idle();
      expect(service.store.published()!.snapshot.revision).toBe(pushed);
      expect((await announce(service, pushed)).json()).toMatchObject({ revision: pushed, catching_up: false });

      // A revision the service refuses (a dangling reference): held for once, while it is loaded and refused; then
      // never
      // again.
      const refused = pushFiles(
        work,
        { 'clusters/c1.yaml': { ...(asRepoFiles()['clusters/c1.yaml'] as object), namespaces: [{ id: 'ghost' }] } },
        'dangling',
      );
      expect((await announce(service, refused)).json()).toMatchObject({ catching_up: true });
      await service.peers!.hold.wait();
      await service.store.idle();
      expect(service.store.published()!.snapshot.revision).toBe(pushed);
      const again = await announce(service, refused);
      expect(again.json()).toMatchObject({ revision: pushed, catching_up: false, ignored: 'held_before' });
      expect(service.peers!.hold.active).toBe(false);
      const metrics = parsePrometheusText((await request(service.url, '/metrics')).text);
      expect(sampleValue(metrics, 'gitops_config_peer_announcements_ignored_total', { reason: 'held_before' })).toBe(1);
    },
  );

  it(
    'take at most 20 announcements at once from one peer, 10 ' +
      'a second after that; the rest are ignored and counted',
    async () => {
      const { service } = await startWithPeers();
      const served = service.store.published()!.snapshot.revision;
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 200 }, () => announce(service, served)));
      const seconds = (performance.now() - started) / 1000;
      const taken = answers.filter((res) => res.json().ignored !== 'rate_limited').length;
      // 20 at once, and 10 more for each second the 200 took to arrive.
      expect(taken).toBeGreaterThanOrEqual(20);
      expect(taken).toBeLessThanOrEqual(20 + Math.ceil(10 * seconds));
      const metrics = parsePrometheusText((await request(service.url, '/metrics')).text);
      expect(sampleValue(metrics, 'gitops_config_peer_announcements_ignored_total', { reason: 'rate_limited' })).toBe(
        200 - taken,
      );
    },
  );

  it('name a peer that takes another PEER_TOKEN as refused, and count it', async () => {
    const prepared = await prepareBackend('git');
    const [one, two] = await freePorts(2);
    const peers = `http://127.0.0.1:${one},http://127.0.0.1:${two}`;
    const first = await startTestService({
      ...prepared.env,
      LISTEN_ADDR: `127.0.0.1:${one}`,
      PEERS: peers,
      PEER_TOKEN,
    });
    services.push(first);
    services.push(
      await startTestService({
        ...prepared.env,
        LISTEN_ADDR: `127.0.0.1:${two}`,
        PEERS: peers,
        PEER_TOKEN: `${PEER_TOKEN}-other`,
      }),
    );
    const fleet = (await request(first.url, '/api/v2/gitops/fleet', { token: READ_TOKEN })).json();
    expect(fleet.peers).toEqual({ answered: [], missing: [{ url: `http://127.0.0.1:${two}`, reason: 'refused' }] });
    const metrics = parsePrometheusText((await request(first.url, '/metrics')).text);
    expect(sampleValue(metrics, 'gitops_config_peer_errors_total', { reason: 'refused' })).toBeGreaterThan(0);
  });

  it('know a SQLite revision as older by its counter, and one the database has not reached as made up', async () => {
    const prepared = await prepareBackend('sqlite');
    const [own] = await freePorts(1);
    const service = await startTestService({
      ...prepared.env,
      LISTEN_ADDR: `127.0.0.1:${own}`,
      PEERS: `http://127.0.0.1:${own}`,
      PEER_TOKEN,
    });
    services.push(service);
    const served = service.store.published()!.snapshot.revision;
    expect(served).toMatch(/^\d+$/);
    expect((await announce(service, String(Number(served) - 1))).json()).toMatchObject({ catching_up: false });
    expect((await announce(service, String(Number(served) - 1))).json()).not.toHaveProperty('ignored');
    // A counter the database has not reached: made up, nothing to hold for.
    expect((await announce(service, String(Number(served) + 1))).json()).toMatchObject({
      catching_up: false,
      ignored: 'nothing_new',
    });
  });
});
