// Rollout progress on the real service with a simulated fleet (helpers/simulated-fleet.ts):
// 24 clusters in four environments polling every quarter second with their own tokens. A
// rollout written with nothing released changes no cluster's bytes; each release serves exactly
// its step's clusters the answer the changed catalog entry would give, byte for byte, and
// leaves every other cluster's ETag alone; a step is done only once each of its clusters
// polled; a released cluster that stops polling turns offline and, past the failure budget,
// halts the rollout, as does a step not done within its progress deadline.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi, openapiDocument } from '../helpers/openapi.ts';
import { send } from '../helpers/crud.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import {
  catalogChangedAnswers,
  FLEET_TOKEN_KEY,
  ROLLED,
  type SimulatedFleet,
  startSimulatedFleet,
} from '../helpers/simulated-fleet.ts';
import { clusterTokenKey, signClusterToken } from '../../src/domain/cluster-token.ts';

const SET = { component_version: '67.5.0', oci_tag: '67.5.0' };
const ROLLOUT = {
  id: 'kps-67-5',
  component: ROLLED,
  set: SET,
  waves: [
    { name: 'canary', clusters: ['dev-eu-1'] },
    { name: 'non-prod', environments: ['dev', 'qa', 'uat'] },
    { name: 'prod', environments: ['prod'], batch: '50%' },
  ],
};
const STATUS = '/api/v2/gitops/rollouts';
const CRUD = { API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'off' };

let fleet: SimulatedFleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

const status = async (f: SimulatedFleet, path = `${STATUS}/${ROLLOUT.id}`) => {
  const res = await request(f.service.url, path, { token: READ_TOKEN });
  expect(res.status, res.text).toBe(200);
  return res.json();
};

/**
 * Polls the status until `check` holds: progress moves with the clusters' polls and the clock, not with an event a test
 * can await.
 */
async function statusUntil(f: SimulatedFleet, check: (s: any) => boolean, timeoutMs = 8000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(f);
    if (check(s)) return s;
    if (Date.now() > deadline)
      throw new Error(`status not reached within ${timeoutMs} ms: ${JSON.stringify(s).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const etags = (f: SimulatedFleet) => new Map(f.clusters.map((c) => [c.id, f.last(c.id)!.etag]));

describe('a three-wave rollout watched on a polling fleet', () => {
  it('releases exactly each step, byte for byte; a step is done only once each of its clusters polled', async () => {
    fleet = await startSimulatedFleet({ env: CRUD });
    const f = fleet;
    await f.polledSince(Date.now());
    const before = etags(f);
    const changed = await catalogChangedAnswers(f.clusters, SET);

    expect((await send(f.service, 'POST', '/rollouts', ROLLOUT)).status).toBe(201);
    await f.polledSince(Date.now());
    expect(etags(f)).toEqual(before);
    const list = (await request(f.service.url, STATUS, { token: READ_TOKEN })).json();
    expect(list).toEqual({
      rollouts: [
        {
          id: ROLLOUT.id,
          component: ROLLED,
          set: SET,
          state: 'ready',
          reason: 'step 1 (wave canary, 1 cluster) may be released',
          released: 0,
          steps: 4,
          clusters: { pending: 24, released: 0, fetched: 0, succeeded: 0, failed: 0, offline: 0, pinned: 0 },
        },
      ],
    });

    // Step 1: its one cluster does not poll for a while; the step waits for it.
    f.stop('dev-eu-1');
    const patched = await send(f.service, 'PATCH', `/rollouts/${ROLLOUT.id}`, { released: 1 });
    expect(patched.status).toBe(200);
    const revision1 = patched.headers['x-config-revision'];
    let s = await status(f);
    expect(s.state).toBe('running');
    expect(s.reason).toBe('1 of 1 cluster has not fetched: dev-eu-1');
    expect(s.steps[0]).toMatchObject({
      step: 1,
      wave: 'canary',
      done_at: null,
      clusters: [{ id: 'dev-eu-1', state: 'released' }],
    });
    expect(s.steps[0].released_in).toBe(revision1 ?? s.steps[0].released_in);
    expect(s.steps[1].clusters.every((c: any) => c.state === 'pending')).toBe(true);

    const released = Date.now();
    f.start('dev-eu-1');
    await f.polledSince(released);
    const canary = f.last('dev-eu-1')!;
    expect(canary.body).toBe(changed.get('dev-eu-1')!.body);
    expect(canary.etag).toBe(changed.get('dev-eu-1')!.etag);
    for (const c of f.clusters.filter((x) => x.id !== 'dev-eu-1'))
      expect(f.last(c.id)!.etag, c.id).toBe(before.get(c.id));
    s = await statusUntil(f, (x) => x.steps[0].done_at !== null);
    expect(s.steps[0].clusters[0]).toMatchObject({ id: 'dev-eu-1', state: 'fetched' });
    expect(Date.parse(s.steps[0].clusters[0].since)).toBeGreaterThanOrEqual(released);
    expect(s.state).toBe('ready');
    expect(s.reason).toBe('step 2 (wave non-prod, 17 clusters) may be released');

    // Step 2: exactly its 17 clusters change.
    expect((await send(f.service, 'PATCH', `/rollouts/${ROLLOUT.id}`, { released: 2 })).status).toBe(200);
    await f.polledSince(Date.now());
    const step2 = s.steps[1].clusters.map((c: any) => c.id) as string[];
    expect(step2).toHaveLength(17);
    for (const c of f.clusters) {
      const expected = c.id === 'dev-eu-1' || step2.includes(c.id) ? changed.get(c.id)!.etag : before.get(c.id);
      expect(f.last(c.id)!.etag, c.id).toBe(expected);
    }
    s = await statusUntil(f, (x) => x.steps[1].done_at !== null);
    expect(s.clusters).toMatchObject({ fetched: 18, pending: 6 });
    expect(s.steps[2].clusters.map((c: any) => c.id)).toEqual(['prod-eu-1', 'prod-eu-2', 'prod-eu-3']);
    // In the shapes of the OpenAPI document: released, done and pending steps; the list.
    await expectMatchesOpenApi('get', '/api/v2/gitops/rollouts/{id}', 200, s);
    await expectMatchesOpenApi(
      'get',
      '/api/v2/gitops/rollouts',
      200,
      (await request(f.service.url, STATUS, { token: READ_TOKEN })).json(),
    );
  });

  it('answers 404 for an unknown rollout, and only to a fleet-wide reader', async () => {
    fleet = await startSimulatedFleet({ env: CRUD });
    const res = await request(fleet.service.url, `${STATUS}/nope`, { token: READ_TOKEN });
    expect(res.status).toBe(404);
    expect(res.json().message).toContain('no rollout "nope"');
    await expectMatchesOpenApi('get', '/api/v2/gitops/rollouts/{id}', 404, res.json());
    const token = signClusterToken(clusterTokenKey(FLEET_TOKEN_KEY), 'dev-eu-1', 0);
    expect((await request(fleet.service.url, STATUS, { token })).status).toBe(403);
    expect((await request(fleet.service.url, STATUS)).status).toBe(401);
    expect((await request(fleet.service.url, `${STATUS}?state=x`, { token: READ_TOKEN })).status).toBe(400);
  });
});

describe('a rollout halts', () => {
  it('when released clusters stop polling for ROLLOUT_OFFLINE_AFTER, more than the failure budget', async () => {
    fleet = await startSimulatedFleet({ env: { ...CRUD, ROLLOUT_OFFLINE_AFTER: '1s' } });
    const f = fleet;
    const rollout = {
      ...ROLLOUT,
      waves: [{ name: 'dev', environments: ['dev'] }, ...ROLLOUT.waves.slice(1)],
      failure_budget: 1,
    };
    expect((await send(f.service, 'POST', '/rollouts', rollout)).status).toBe(201);
    await f.polledSince(Date.now());
    f.stop('dev-eu-1');
    f.stop('dev-us-1');
    expect((await send(f.service, 'PATCH', `/rollouts/${ROLLOUT.id}`, { released: 1 })).status).toBe(200);
    // Two released members silent for a second: past the budget of 1.
    let s = await statusUntil(f, (x) => x.state === 'halted');
    expect(s.reason).toBe(
      'step 1 has 2 clusters failed or offline, more than the failure budget of 1: dev-eu-1 (offline), dev-us-1 ' +
        '(offline)',
    );
    const offline = s.steps[0].clusters.find((c: any) => c.id === 'dev-eu-1');
    expect(offline).toMatchObject({ state: 'offline' });
    expect(offline.message).toMatch(/^no poll since \d\d:\d\d UTC$/);
    await expectMatchesOpenApi('get', '/api/v2/gitops/rollouts/{id}', 200, s);
    // One back: it fetches, one offline is within the budget, and the step is done.
    f.start('dev-us-1');
    s = await statusUntil(f, (x) => x.state === 'ready');
    expect(s.clusters).toMatchObject({ fetched: 5, offline: 1 });
  });

  it('when a step is not done within its progress deadline', async () => {
    fleet = await startSimulatedFleet({ env: CRUD });
    const f = fleet;
    expect((await send(f.service, 'POST', '/rollouts', { ...ROLLOUT, progress_deadline: '1s' })).status).toBe(201);
    f.stop('dev-eu-1');
    expect((await send(f.service, 'PATCH', `/rollouts/${ROLLOUT.id}`, { released: 1 })).status).toBe(200);
    const s = await statusUntil(f, (x) => x.state === 'halted');
    expect(s.reason).toMatch(
      /^step 1 is not done within the progress deadline of 1s \(released at \d\d:\d\d UTC\): 1 of 1 cluster has not fetched: dev-eu-1$/,
    );
    expect(s.clusters.released).toBe(1);
  });
});

describe('the OpenAPI document of the status paths', () => {
  it('has examples of the shapes it describes', async () => {
    const doc = (await openapiDocument()) as any;
    for (const path of ['/api/v2/gitops/rollouts', '/api/v2/gitops/rollouts/{id}']) {
      const example = doc.paths[path].get.responses['200'].content['application/json'].example;
      expect(example, path).toBeDefined();
      await expectMatchesOpenApi('get', path, 200, example);
    }
    await expect(
      expectMatchesOpenApi('get', '/api/v2/gitops/rollouts', 200, { rollouts: [{ id: 'x', state: 'gone' }] }),
    ).rejects.toThrow(/does not match/);
  });
});
