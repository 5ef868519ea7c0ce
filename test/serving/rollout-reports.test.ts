// A rollout with require_reports: true on the real service, a simulated fleet polling it and
// its clusters reporting as Flux's notification-controller does (helpers/flux-events.ts says
// from which of Flux's sources each fact comes: the Event body, generic-hmac's X-Signature, the
// group prefix stripped from metadata keys, helm-controller's reasons and severities). A step
// waits for its clusters' successes — fetched is not enough, and a missing report never counts
// — and the service releases the next one after them; an event before the step was released,
// one for an earlier release and one delivered twice change nothing; an error event beyond the
// failure budget halts the rollout, and the status names the failed cluster and its message.
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../helpers/crud.ts';
import { postSigned, postWithToken } from '../helpers/flux-event-posts.ts';
import { clusterToken, type HelmEvent, helmEventBody } from '../helpers/flux-events.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { FLEET_TOKEN_KEY, ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';

// Two clusters per environment: dev-eu-1, dev-us-1, qa-eu-1, qa-us-1, uat-..., prod-...
const ROLLOUT = {
  id: 'kps-67-5',
  component: ROLLED,
  set: { component_version: '67.5.0', oci_tag: '67.5.0' },
  require_reports: true,
  waves: [
    { name: 'canary', clusters: ['dev-eu-1'] },
    { name: 'non-prod', environments: ['dev', 'qa'] },
    { name: 'prod', environments: ['uat', 'prod'], approval: true },
  ],
};
const FAILURE =
  'Helm upgrade failed for release flux-system/kube-prometheus-stack with chart kube-prometheus-stack@67.5.0: ' +
  'context deadline exceeded';

let fleet: SimulatedFleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

const token = (id: string) => clusterToken(FLEET_TOKEN_KEY, id);
const helm = (cluster: string, fields: Partial<HelmEvent> = {}) =>
  helmEventBody({ name: ROLLED, reason: 'UpgradeSucceeded', revision: '67.5.0', cluster, ...fields });

/** The rollout's status once `check` holds, asked again every 100 ms. */
async function statusUntil(f: SimulatedFleet, check: (s: any) => boolean, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(f.service.url, `/api/v2/gitops/rollouts/${ROLLOUT.id}`, { token: READ_TOKEN });
    if (res.status === 200 && check(res.json())) return res.json();
    if (Date.now() > deadline) throw new Error(`status not reached within ${timeoutMs} ms: ${res.text.slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The state of one cluster in a status. */
const stateOf = (s: any, id: string) => s.steps.flatMap((step: any) => step.clusters).find((c: any) => c.id === id);

/** Resolves after `n` more evaluations of the service's own (each one judges every event received before it). */
function evaluations(f: SimulatedFleet, n: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const off = f.service.rollouts!.evaluations.onEvaluated(() => {
      if (++seen < n) return;
      off();
      resolve();
    });
    f.service.rollouts!.evaluations.soon();
  });
}

describe('a rollout with require_reports gates each step on what its clusters report', () => {
  it('waits for the successes, advances after them, ignores late and repeated events, halts on a failure', async () => {
    fleet = await startSimulatedFleet({ perEnvironment: 2, env: { API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'on' } });
    const f = fleet;
    // Sent before step 2 is released: a report of the right chart version, but too early to be this release's.
    const early = helm('qa-eu-1', { timestamp: '2026-01-01T00:00:00Z' });
    expect((await postSigned(f.service.url, early, token('qa-eu-1'))).status).toBe(202);
    expect((await send(f.service, 'POST', '/rollouts', ROLLOUT)).status).toBe(201);

    // Step 1 released by the service; dev-eu-1 fetches it — fetched is not enough.
    let s = await statusUntil(f, (x) => x.released === 1 && stateOf(x, 'dev-eu-1').state === 'fetched');
    await evaluations(f, 3);
    s = await statusUntil(f, () => true);
    expect(s).toMatchObject({
      state: 'running',
      released: 1,
      reason: '1 of 1 cluster has not reported success: dev-eu-1',
    });
    // A report of the earlier release (the catalog's chart) and one of another HelmRelease change nothing.
    expect((await postSigned(f.service.url, helm('dev-eu-1', { revision: '67.4.0' }), token('dev-eu-1'))).status).toBe(
      202,
    );
    expect(
      (await postSigned(f.service.url, helm('dev-eu-1', { name: 'cert-manager' }), token('dev-eu-1'))).status,
    ).toBe(202);
    await evaluations(f, 2);
    expect((await statusUntil(f, () => true)).released).toBe(1);

    // The success, signed as generic-hmac signs: step 1 is done and the service releases step 2.
    const success = helm('dev-eu-1');
    expect((await postSigned(f.service.url, success, token('dev-eu-1'))).status).toBe(202);
    s = await statusUntil(f, (x) => x.released === 2);
    expect(stateOf(s, 'dev-eu-1')).toMatchObject({ state: 'succeeded' });
    expect(s.steps[0].done_at).not.toBeNull();

    // The early report delivered again (a retried delivery: the same body) is kept once, and counts
    // no more than before.
    const again = await postSigned(f.service.url, early, token('qa-eu-1'));
    expect(again.json()).toEqual({ status: 'duplicate', message: 'this event was received before; it is kept once' });
    await f.polledSince(Date.now(), ['dev-us-1', 'qa-eu-1', 'qa-us-1']);
    await evaluations(f, 2);
    s = await statusUntil(f, () => true);
    expect(s.state).toBe('running');
    expect(stateOf(s, 'qa-eu-1').state).toBe('fetched');
    expect(s.reason).toBe('3 of 3 clusters have not reported success: dev-us-1, qa-eu-1, qa-us-1');

    // Two succeed (one with its token as the caller, a generic Provider); qa-eu-1's upgrade fails:
    // over the budget of 0.
    expect((await postWithToken(f.service.url, helm('dev-us-1'), token('dev-us-1'))).status).toBe(202);
    expect(
      (await postSigned(f.service.url, helm('qa-us-1', { reason: 'InstallSucceeded' }), token('qa-us-1'))).status,
    ).toBe(202);
    const failure = helm('qa-eu-1', { reason: 'UpgradeFailed', message: FAILURE });
    expect((await postSigned(f.service.url, failure, token('qa-eu-1'))).status).toBe(202);
    s = await statusUntil(f, (x) => x.state === 'halted');
    expect(s.reason).toBe(
      `step 2 has 1 cluster failed or offline, more than the failure budget of 0: qa-eu-1 (failed: ${FAILURE})`,
    );
    expect(stateOf(s, 'qa-eu-1')).toMatchObject({ state: 'failed', message: FAILURE });
    expect(stateOf(s, 'dev-us-1').state).toBe('succeeded');
    expect(stateOf(s, 'qa-us-1').state).toBe('succeeded');
    expect(s.clusters).toMatchObject({ succeeded: 3, failed: 1 });
    // Halted: never advanced by itself, however often it is evaluated.
    await evaluations(f, 2);
    expect((await statusUntil(f, () => true)).released).toBe(2);
    const list = await request(f.service.url, '/api/v2/gitops/rollouts', { token: READ_TOKEN });
    expect(list.json().rollouts[0]).toMatchObject({ state: 'halted', clusters: { failed: 1 } });
  });
});
