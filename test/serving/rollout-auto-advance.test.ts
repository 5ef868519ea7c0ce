// ROLLOUT_AUTO_ADVANCE on the real service with a simulated fleet (helpers/simulated-fleet.ts):
// the service releases each step once the one before is done and soaked, as a commit whose
// message names the evidence; a wave that waits for approval waits for a person's write; a
// halted or paused rollout is not advanced; and two crud writers on one remote, both
// advancing, release each step exactly once (one commit per step in the history).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../helpers/crud.ts';
import { git, tempDir } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';

const ROLLOUT = {
  id: 'kps-67-5',
  component: ROLLED,
  set: { component_version: '67.5.0', oci_tag: '67.5.0' },
  waves: [
    { name: 'canary', clusters: ['dev-eu-1'], soak: '1s' },
    { name: 'non-prod', environments: ['dev', 'qa', 'uat'], soak: '1s' },
    { name: 'prod', environments: ['prod'], batch: '50%', approval: true },
  ],
};
const FILE = `rollouts/${ROLLOUT.id}.yaml`;
const AUTO = { API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'on' };

let fleets: SimulatedFleet[] = [];
afterEach(async () => {
  await Promise.all(fleets.map((f) => f.close()));
  fleets = [];
});

async function statusUntil(f: SimulatedFleet, check: (s: any) => boolean, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(f.service.url, `/api/v2/gitops/rollouts/${ROLLOUT.id}`, { token: READ_TOKEN });
    const s = res.json();
    if (res.status === 200 && check(s)) return s;
    if (Date.now() > deadline) throw new Error(`status not reached within ${timeoutMs} ms: ${res.text.slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The messages of the commits that changed the rollout's file, oldest first. */
const history = (dir: string): string[] =>
  git(dir, 'log', '--reverse', '--format=%s', '--', FILE).split('\n').filter(Boolean);

/**
 * Resolves with the rollout's progress at the first evaluation of the service's own (a
 * publication or its timer starts each) where `check` holds: what the advancer is handed next.
 */
function evaluatedUntil(f: SimulatedFleet, check: (p: any) => boolean, count = 1): Promise<any> {
  return new Promise((resolve) => {
    let seen = 0;
    const off = f.service.rollouts!.evaluations.onEvaluated((evaluated) => {
      const progress = evaluated.rollouts.find((r) => r.rollout.id === ROLLOUT.id);
      if (progress === undefined || !check(progress) || ++seen < count) return;
      off();
      resolve(progress);
    });
    f.service.rollouts!.evaluations.soon();
  });
}

describe('the service advances a rollout itself', () => {
  it(
    'releases each step once the one before is done and ' + 'soaked, and waits for a person to approve a wave',
    async () => {
      const f = await startSimulatedFleet({ env: AUTO });
      fleets.push(f);
      const dir = f.prepared.dir!;
      expect((await send(f.service, 'POST', '/rollouts', ROLLOUT)).status).toBe(201);
      let s = await statusUntil(f, (x) => x.state === 'waiting' && x.reason === 'waits for approval of wave prod');
      expect(s.released).toBe(2);
      expect(s.steps[1].done_at).not.toBeNull();
      const [created, step1, step2, ...rest] = history(dir);
      expect(created).toMatch(/kps-67-5/);
      expect(step1).toBe('rollout kps-67-5: release step 1 (wave canary, 1 cluster)');
      expect(step2).toMatch(
        /^rollout kps-67-5: release step 2 \(wave non-prod, 17 clusters\) \u2014 step 1 done at \S+Z, soak 1s passed$/,
      );
      expect(rest).toEqual([]);
      // Step 2's soak has passed: the service evaluates it waiting for approval, and releases nothing.
      await evaluatedUntil(
        f,
        (p) => p.status.state === 'waiting' && p.status.reason === 'waits for approval of wave prod',
      );
      await f.service.rollouts!.evaluations.settled();
      expect(history(dir)).toHaveLength(3);

      expect((await send(f.service, 'PATCH', `/rollouts/${ROLLOUT.id}`, { approved: ['prod'] })).status).toBe(200);
      s = await statusUntil(f, (x) => x.state === 'complete');
      expect(s.steps.map((x: any) => x.done_at !== null)).toEqual([true, true, true, true]);
      const messages = history(dir);
      expect(messages.slice(3)).toEqual([
        // The person's approval, in the message the REST write makes.
        expect.stringContaining('kps-67-5'),
        expect.stringMatching(
          /^rollout kps-67-5: release step 3 \(wave prod, 3 clusters\) \u2014 step 2 done at \S+Z, soak 1s passed, wave prod approved$/,
        ),
        expect.stringMatching(
          /^rollout kps-67-5: release step 4 \(wave prod, 3 clusters\) \u2014 step 3 done at \S+Z, no soak$/,
        ),
      ]);
    },
  );

  it('does not advance a halted rollout, nor a paused one, and goes on once the halt lifts or it resumes', async () => {
    const f = await startSimulatedFleet({ env: { ...AUTO, ROLLOUT_OFFLINE_AFTER: '1s' } });
    fleets.push(f);
    const dir = f.prepared.dir!;
    await f.polledSince(Date.now());
    f.stop('dev-eu-1');
    expect(
      (
        await send(f.service, 'POST', '/rollouts', {
          ...ROLLOUT,
          waves: ROLLOUT.waves.map((w) => ({ ...w, soak: '0s' })),
        })
      ).status,
    ).toBe(201);
    let s = await statusUntil(f, (x) => x.state === 'halted');
    expect(s.released).toBe(1);
    await evaluatedUntil(f, (p) => p.status.state === 'halted', 3);
    await f.service.rollouts!.evaluations.settled();
    expect(history(dir)).toHaveLength(2);

    // Paused while halted; back online, the halt lifts, and the pause still holds it.
    expect((await send(f.service, 'PATCH', `/rollouts/${ROLLOUT.id}`, { paused: true })).status).toBe(200);
    f.start('dev-eu-1');
    await evaluatedUntil(f, (p) => p.status.state === 'paused' && p.steps[0].done);
    await f.service.rollouts!.evaluations.settled();
    expect(history(dir)).toHaveLength(3);
    expect((await send(f.service, 'PATCH', `/rollouts/${ROLLOUT.id}`, { paused: false })).status).toBe(200);
    s = await statusUntil(f, (x) => x.state === 'waiting' && x.released === 2);
    expect(history(dir).at(-1)).toMatch(
      /^rollout kps-67-5: release step 2 \(wave non-prod, 17 clusters\) \u2014 step 1 done at \S+Z, no soak$/,
    );
  });
});

describe('two crud writers on one remote, both advancing', () => {
  it('release each step exactly once: one commit per step', async () => {
    const sync = { CONFIG_SYNC_INTERVAL: '300ms' };
    const a = await startSimulatedFleet({ backend: 'git-remote', env: { ...AUTO, ...sync } });
    fleets.push(a);
    const b = await startSimulatedFleet({
      prepared: a.prepared,
      env: { ...AUTO, ...sync, CONFIG_CLONE_DIR: join(tempDir(), 'clone') },
    });
    fleets.push(b);
    const rollout = { ...ROLLOUT, waves: ROLLOUT.waves.map((w) => ({ ...w, soak: '0s', approval: false })) };
    expect((await send(a.service, 'POST', '/rollouts', rollout)).status).toBe(201);
    await statusUntil(a, (x) => x.state === 'complete');
    await statusUntil(b, (x) => x.state === 'complete');
    const remote = a.prepared.remote!;
    git(remote.work, 'pull', '-q');
    const releases = history(remote.work).filter((m) => m.includes('release step'));
    expect(releases.map((m) => m.replace(/ \u2014.*$/, ''))).toEqual([
      'rollout kps-67-5: release step 1 (wave canary, 1 cluster)',
      'rollout kps-67-5: release step 2 (wave non-prod, 17 clusters)',
      'rollout kps-67-5: release step 3 (wave prod, 3 clusters)',
      'rollout kps-67-5: release step 4 (wave prod, 3 clusters)',
    ]);
  }, 60_000);
});
