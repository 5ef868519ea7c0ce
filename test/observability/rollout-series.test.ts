// The rollout series (src/observability/rollout-series.ts) on the real service with a simulated
// fleet (helpers/simulated-fleet.ts: 24 clusters polling with their own tokens): per rollout,
// the steps released and their number, its clusters by state and its state, as the status
// endpoint says them; since when it waits for a person's approval (from the end of the step
// before, or from when it was first seen waiting before step 1); a halted rollout; no series
// left of a rollout that is gone; and a scrape reads the last evaluation, it walks no fleet.
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../helpers/crud.ts';
import { request } from '../helpers/http.ts';
import { type Family, parsePrometheusText } from '../helpers/prometheus-text.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';

const ID = 'kps-67-5';
const ROLLOUT = {
  id: ID,
  component: ROLLED,
  set: { component_version: '67.5.0', oci_tag: '67.5.0' },
  waves: [
    { name: 'canary', clusters: ['dev-eu-1'], approval: true },
    { name: 'non-prod', environments: ['dev', 'qa', 'uat'], approval: true },
    { name: 'prod', environments: ['prod'], batch: '50%' },
  ],
};
const CRUD = { API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'off' };
const FAMILIES = ['released_steps', 'steps', 'clusters', 'state', 'approval_waiting_since_timestamp_seconds'].map(
  (name) => `gitops_config_rollout_${name}`,
);

let fleet: SimulatedFleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

async function scrape(f: SimulatedFleet): Promise<Map<string, Family>> {
  const res = await request(f.service.url, '/metrics');
  expect(res.status).toBe(200);
  return parsePrometheusText(res.text);
}

/** The value of a rollout's sample of `family` with `labels` besides its id; undefined when there is none. */
function valueOf(
  families: Map<string, Family>,
  family: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = { rollout: ID, ...labels };
  const samples = families.get(`gitops_config_rollout_${family}`)?.samples ?? [];
  return samples.find((s) => Object.entries(wanted).every(([k, v]) => s.labels[k] === v))?.value;
}

/** The rollout's state as its series say it: the one state whose series is 1. */
function stateOf(families: Map<string, Family>): string[] {
  return (families.get('gitops_config_rollout_state')?.samples ?? [])
    .filter((s) => s.value === 1)
    .map((s) => s.labels.state);
}

/**
 * Scrapes until `check` holds, each time after the service's next evaluation of the rollouts
 * (a publication or its timer starts each; asked for here too): the series read the last one.
 */
async function scrapeUntil(
  f: SimulatedFleet,
  check: (families: Map<string, Family>) => boolean,
  timeoutMs = 10_000,
): Promise<Map<string, Family>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const families = await scrape(f);
    if (check(families)) return families;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: state ${stateOf(families).join()}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      const off = f.service.rollouts!.evaluations.onEvaluated(() => {
        off();
        clearTimeout(timer);
        resolve();
      });
      f.service.rollouts!.evaluations.soon();
    });
  }
}

const status = async (f: SimulatedFleet) =>
  (await request(f.service.url, `/api/v2/gitops/rollouts/${ID}`, { token: READ_TOKEN })).json();

describe('the rollout series', () => {
  it('follow a rollout through its states as its status says them, and are gone with it', async () => {
    fleet = await startSimulatedFleet({ env: CRUD });
    const f = fleet;
    let families = await scrape(f);
    for (const name of FAMILIES) expect(families.get(name)?.samples, name).toEqual([]);

    // Nothing released, wave canary not approved: it waits for approval from the moment it is first seen so.
    const created = Date.now();
    expect((await send(f.service, 'POST', '/rollouts', ROLLOUT)).status).toBe(201);
    families = await scrapeUntil(f, (x) => stateOf(x).length > 0);
    expect(stateOf(families)).toEqual(['waiting']);
    expect((families.get('gitops_config_rollout_state')?.samples ?? []).map((s) => s.labels.state).sort()).toEqual([
      'complete',
      'halted',
      'paused',
      'ready',
      'running',
      'waiting',
    ]);
    expect(valueOf(families, 'released_steps')).toBe(0);
    expect(valueOf(families, 'steps')).toBe(4);
    expect(valueOf(families, 'clusters', { state: 'pending' })).toBe(24);
    const firstSeen = valueOf(families, 'approval_waiting_since_timestamp_seconds')!;
    expect(firstSeen * 1000).toBeGreaterThanOrEqual(created - 1);
    expect(firstSeen * 1000).toBeLessThanOrEqual(Date.now());

    // Scrapes read the last evaluation: none is made for them, and a later evaluation keeps the first sighting.
    const tracker = f.service.rollouts!.tracker;
    const evaluate = tracker.evaluate.bind(tracker);
    let evaluations = 0;
    tracker.evaluate = (...args) => (evaluations++, evaluate(...args));
    for (let i = 0; i < 3; i++) await scrape(f);
    expect(evaluations).toBe(0);
    families = await scrapeUntil(f, () => evaluations > 0);
    expect(valueOf(families, 'approval_waiting_since_timestamp_seconds')).toBe(firstSeen);

    // Canary approved and released: once done, wave non-prod waits for approval from the moment step 1 was done.
    expect((await send(f.service, 'PATCH', `/rollouts/${ID}`, { approved: ['canary'], released: 1 })).status).toBe(200);
    families = await scrapeUntil(f, (x) => valueOf(x, 'released_steps') === 1 && stateOf(x)[0] === 'waiting');
    const s = await status(f);
    expect(s.state).toBe('waiting');
    expect(valueOf(families, 'approval_waiting_since_timestamp_seconds')! * 1000).toBeCloseTo(
      Date.parse(s.steps[0].done_at),
      0,
    );
    for (const [state, count] of Object.entries(s.clusters))
      expect(valueOf(families, 'clusters', { state }), state).toBe(count);
    expect(valueOf(families, 'clusters', { state: 'fetched' })).toBe(1);

    // Paused: no longer waiting for approval.
    expect((await send(f.service, 'PATCH', `/rollouts/${ID}`, { paused: true })).status).toBe(200);
    families = await scrapeUntil(f, (x) => stateOf(x)[0] === 'paused');
    expect(valueOf(families, 'approval_waiting_since_timestamp_seconds')).toBe(0);

    // Gone: no series of it is left.
    expect((await send(f.service, 'DELETE', `/rollouts/${ID}`)).status).toBe(204);
    families = await scrapeUntil(f, (x) => stateOf(x).length === 0);
    for (const name of FAMILIES) expect(families.get(name)?.samples, name).toEqual([]);
  });

  it('say a rollout is halted, with the cluster that holds it back', async () => {
    fleet = await startSimulatedFleet({ env: CRUD });
    const f = fleet;
    const quick = { ...ROLLOUT, waves: ROLLOUT.waves.map((w) => ({ ...w, approval: false })), progress_deadline: '1s' };
    expect((await send(f.service, 'POST', '/rollouts', quick)).status).toBe(201);
    f.stop('dev-eu-1');
    expect((await send(f.service, 'PATCH', `/rollouts/${ID}`, { released: 1 })).status).toBe(200);
    const families = await scrapeUntil(f, (x) => stateOf(x)[0] === 'halted');
    expect(valueOf(families, 'state', { state: 'halted' })).toBe(1);
    expect(valueOf(families, 'state', { state: 'running' })).toBe(0);
    expect(valueOf(families, 'clusters', { state: 'released' })).toBe(1);
    expect(valueOf(families, 'released_steps')).toBe(1);
    expect(valueOf(families, 'approval_waiting_since_timestamp_seconds')).toBe(0);
    expect((await status(f)).state).toBe('halted');
  });
});
