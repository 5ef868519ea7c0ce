// Among replicas (PEERS) each keeps the events it was sent, and the rollouts of every replica
// judge by all of them: a cluster whose notification-controller reached replica B counts as
// succeeded on replica A's status too (fetched by A over GET /peers/v1/events, like the poll
// records). The event is built and signed as notification-controller's generic-hmac Provider
// sends it (helpers/flux-events.ts names the sources).
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { postSigned } from '../helpers/flux-event-posts.ts';
import { clusterToken, helmEventBody } from '../helpers/flux-events.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { freePorts } from '../helpers/replica-set.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { FLEET_TOKEN_KEY, ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';

const PEER_TOKEN = 'peer-token-of-the-replicas-e7a2';
const ROLLOUT = {
  id: 'kps-67-5',
  component: ROLLED,
  set: { component_version: '67.5.0', oci_tag: '67.5.0' },
  require_reports: true,
  released: 1,
  waves: [
    { name: 'canary', clusters: ['dev-eu-1'] },
    { name: 'rest', environments: ['qa', 'uat', 'prod'] },
  ],
};

const fleets: SimulatedFleet[] = [];
afterEach(async () => {
  for (const f of fleets.splice(0)) await f.close();
});

async function statusUntil(f: SimulatedFleet, check: (s: any) => boolean, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(f.service.url, `/api/v2/gitops/rollouts/${ROLLOUT.id}`, { token: READ_TOKEN });
    if (res.status === 200 && check(res.json())) return res.json();
    if (Date.now() > deadline) throw new Error(`status not reached within ${timeoutMs} ms: ${res.text.slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the events clusters send, among replicas', () => {
  it('are judged by every replica: an event sent to one counts on the status of the other', async () => {
    const [a, b] = await freePorts(2);
    const peers = { PEERS: `http://127.0.0.1:${a},http://127.0.0.1:${b}`, PEER_TOKEN };
    const first = await startSimulatedFleet({
      perEnvironment: 1,
      env: { ...peers, LISTEN_ADDR: `127.0.0.1:${a}` },
      extraFiles: { [`rollouts/${ROLLOUT.id}.yaml`]: ROLLOUT },
    });
    fleets.push(first);
    const second = await startSimulatedFleet({
      perEnvironment: 1,
      prepared: first.prepared,
      env: { ...peers, LISTEN_ADDR: `127.0.0.1:${b}` },
    });
    fleets.push(second);
    let s = await statusUntil(first, (x) => x.steps[0].clusters[0].state === 'fetched');
    expect(s.reason).toBe('1 of 1 cluster has not reported success: dev-eu-1');

    const event = helmEventBody({ name: ROLLED, reason: 'UpgradeSucceeded', revision: '67.5.0', cluster: 'dev-eu-1' });
    expect((await postSigned(second.service.url, event, clusterToken(FLEET_TOKEN_KEY, 'dev-eu-1'))).status).toBe(202);
    expect(first.service.events.size).toBe(0);
    s = await statusUntil(first, (x) => x.steps[0].clusters[0].state === 'succeeded');
    expect(s).toMatchObject({ state: 'ready', reason: 'step 2 (wave rest, 3 clusters) may be released' });

    // What the first replica fetched: the second's events, in the compact rows of the peer path.
    const res = await request(second.service.url, '/peers/v1/events?from=x', { token: PEER_TOKEN });
    expect(res.headers['content-encoding']).toBe('gzip');
    const records = JSON.parse(gunzipSync(res.body).toString('utf8'));
    await expectMatchesOpenApi('get', '/peers/v1/events', 200, records);
    expect(records.events).toEqual([
      ['dev-eu-1', [expect.arrayContaining(['HelmRelease', ROLLED, 'UpgradeSucceeded'])]],
    ]);
  });
});
