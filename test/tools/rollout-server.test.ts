// `gitops-config rollout <action> <id> --server <url>` against a service in crud mode (the
// service's own advancing off, so every commit here is the tool's) with a simulated fleet
// polling it: --preview prints what the change would do and stores nothing, --dry-run asks,
// without either the change set is committed with the action's message. An advance the
// service's status does not call ready is refused unless --force, and a forced one says so in
// its commit. An unknown id, an action that does not fit the rollout and a refusal exit 1.
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../helpers/crud.ts';
import { git } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { runTool } from '../helpers/run-tool.ts';
import { READ_TOKEN, WRITE_TOKEN } from '../helpers/service.ts';
import { ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';
import { ROLLOUT_ID, ROLLOUT_PATH, rolloutText, SET, STEP_2 } from '../fixtures/rollout-checkout.ts';

let fleet: SimulatedFleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

const WRITER = { GITOPS_CONFIG_TOKEN: WRITE_TOKEN };

async function start(text = rolloutText({ released: 1 })): Promise<SimulatedFleet> {
  fleet = await startSimulatedFleet({
    env: { API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'off' },
    extraFiles: { [ROLLOUT_PATH]: text },
  });
  return fleet;
}

async function stateOf(f: SimulatedFleet): Promise<{ state: string; reason: string; released: number }> {
  return (await request(f.service.url, `/api/v2/gitops/rollouts/${ROLLOUT_ID}`, { token: READ_TOKEN })).json();
}

/** Waits for the state (and reason) the status says: it moves with the clusters' polls and the soak's clock. */
async function until(f: SimulatedFleet, state: string, reason?: string): Promise<void> {
  const reached = (s: { state: string; reason: string }) =>
    s.state === state && (reason === undefined || s.reason === reason);
  for (let i = 0; !reached(await stateOf(f)); i++) {
    if (i > 80) throw new Error(`not ${state}: ${JSON.stringify(await stateOf(f))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const record = async (f: SimulatedFleet) => (await send(f.service, 'GET', `/rollouts/${ROLLOUT_ID}`)).json();
const lastMessage = (f: SimulatedFleet) => git(f.prepared.dir!, 'log', '-1', '--format=%s');

describe('gitops-config rollout <action> --server', () => {
  it('advance: previewed, then committed; refused while not ready unless forced, and the commit says so', async () => {
    const f = await start();
    const tool = (...args: string[]) => runTool(['rollout', ...args, '--server', f.service.url], { env: WRITER });
    await until(f, 'ready');
    const head = git(f.prepared.dir!, 'rev-parse', 'HEAD');

    const preview = await tool('advance', ROLLOUT_ID, '--preview', '--format', 'json');
    expect(preview.status, preview.stderr).toBe(0);
    expect(preview.stderr).toBe('change set: rollout kps-67-5: release step 2 (wave non-prod, 17 clusters)\n');
    expect(
      JSON.parse(preview.stdout)
        .clusters.map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual(STEP_2);
    const text = await tool('advance', ROLLOUT_ID, '--preview');
    expect(text.stdout).toContain('Summary: 17 clusters changed (dev 5, qa 6, uat 6) of 24');
    const dry = await tool('advance', ROLLOUT_ID, '--dry-run');
    expect(dry.stdout).toMatch(/^dry run: the service would store the change set/);
    expect(git(f.prepared.dir!, 'rev-parse', 'HEAD')).toBe(head);

    const stored = await tool('advance', ROLLOUT_ID);
    expect(stored.status, stored.stderr).toBe(0);
    expect(stored.stdout).toMatch(/^stored: revision [0-9a-f]{40}\n {2}rollouts\/kps-67-5 "/);
    expect(lastMessage(f)).toBe('rollout kps-67-5: release step 2 (wave non-prod, 17 clusters)');
    expect(await record(f)).toMatchObject({ released: 2 });

    // Step 2 has just been released: it runs, and then waits for the approval of wave prod.
    const early = await tool('advance', ROLLOUT_ID);
    expect(early.status).toBe(1);
    expect(early.stderr).toMatch(
      /^gitops-config: rollout kps-67-5 is (running|waiting): .+; add --force to release it anyway\n$/,
    );
    await until(f, 'waiting', 'waits for approval of wave prod');
    const forced = await tool('advance', ROLLOUT_ID, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(
      'warning: releasing the next step although rollout kps-67-5 is waiting: waits for approval of wave prod',
    );
    expect(lastMessage(f)).toBe(
      'rollout kps-67-5: release step 3 (wave prod, 3 clusters) — forced while waiting: waits for approval of wave ' +
        'prod',
    );
    expect(await record(f)).toMatchObject({ released: 3 });
  });

  it('approve, pause, resume and rollback are commits of the record; a repeat changes nothing', async () => {
    const f = await start(rolloutText({ released: 2 }));
    const tool = (...args: string[]) => runTool(['rollout', ...args, '--server', f.service.url], { env: WRITER });
    expect((await tool('approve', ROLLOUT_ID, 'prod')).status).toBe(0);
    expect(lastMessage(f)).toBe('rollout kps-67-5: approve wave prod');
    expect(await record(f)).toMatchObject({ approved: ['prod'] });
    expect((await tool('pause', ROLLOUT_ID)).status).toBe(0);
    expect(lastMessage(f)).toBe('rollout kps-67-5: pause at step 2 of 4');
    const again = await tool('pause', ROLLOUT_ID);
    expect(again.status).toBe(0);
    expect(again.stderr).toBe('nothing to change: rollout kps-67-5 is paused already\n');
    expect((await tool('resume', ROLLOUT_ID)).status).toBe(0);
    expect(await record(f)).toMatchObject({ paused: false });

    const preview = await tool('rollback', ROLLOUT_ID, '--to', '1', '--preview', '--format', 'json');
    expect(
      JSON.parse(preview.stdout)
        .clusters.map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual(STEP_2);
    expect((await tool('rollback', ROLLOUT_ID, '--to', '1')).status).toBe(0);
    expect(lastMessage(f)).toBe('rollout kps-67-5: roll back to step 1 from step 2, and pause');
    expect(await record(f)).toMatchObject({ released: 1, paused: true });
    // The file in the repository kept its comments: the service edits it in place too.
    expect(git(f.prepared.dir!, 'show', `HEAD:${ROLLOUT_PATH}`)).toContain('# one cluster first');
  });

  it('complete: refused while steps are unreleased; once all are, one commit that changes no cluster', async () => {
    const f = await start(rolloutText({ released: 3, approved: '[prod]' }));
    const tool = (...args: string[]) => runTool(['rollout', ...args, '--server', f.service.url], { env: WRITER });
    const early = await tool('complete', ROLLOUT_ID);
    expect(early.status).toBe(1);
    expect(early.stderr).toContain(
      'step 4 is not released: completing rollout kps-67-5 now changes the answers of 3 clusters at once',
    );
    expect((await send(f.service, 'PATCH', `/rollouts/${ROLLOUT_ID}`, { released: 4 })).status).toBe(200);

    const preview = await tool('complete', ROLLOUT_ID, '--preview', '--format', 'json');
    expect(preview.status, preview.stderr).toBe(0);
    expect(JSON.parse(preview.stdout).summary.clusters_changed).toBe(0);
    const done = await tool('complete', ROLLOUT_ID);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/\n {2}rollouts\/kps-67-5 \(deleted\)\n$/);
    expect((await send(f.service, 'GET', `/rollouts/${ROLLOUT_ID}`)).status).toBe(404);
    expect((await send(f.service, 'GET', `/platform_components/${ROLLED}`)).json()).toMatchObject(SET);
    expect(git(f.prepared.dir!, 'rev-list', '--count', 'HEAD')).toBe('3');
  });

  it(
    'names an unknown id, an action that does not fit, a ' + 'refusal (exit 1) and a wrong command line (exit 2)',
    async () => {
      const f = await start();
      const tool = (args: string[], env: Record<string, string> = WRITER) =>
        runTool(['rollout', ...args, '--server', f.service.url], { env });
      const cases: [string[], Record<string, string>, RegExp][] = [
        [
          ['advance', 'nope'],
          WRITER,
          /^gitops-config: no rollout "nope" on the service \(.*\/rollouts\/nope answered 404\)\n$/,
        ],
        [
          ['approve', ROLLOUT_ID, 'qa'],
          WRITER,
          /^gitops-config: rollout kps-67-5 has no wave "qa" \(its waves: canary, non-prod, prod\)\n$/,
        ],
        [['rollback', ROLLOUT_ID, '--to', '2'], WRITER, /cannot roll back to 2: a step from 0 to 0\n$/],
        [
          ['pause', ROLLOUT_ID],
          { GITOPS_CONFIG_TOKEN: READ_TOKEN },
          /^change set: .*\ngitops-config: the service answered 401 unauthorized: the read token/,
        ],
      ];
      for (const [args, env, message] of cases) {
        const result = await tool(args, env);
        expect(result.status, args.join(' ')).toBe(1);
        expect(result.stderr, args.join(' ')).toMatch(message);
      }
      const usage: [string[], Record<string, string>, RegExp][] = [
        [['pause', ROLLOUT_ID], {}, /no token: set GITOPS_CONFIG_TOKEN/],
        [['pause', ROLLOUT_ID, '--preview', '--dry-run'], WRITER, /cannot be used with option/],
      ];
      for (const [args, env, message] of usage) {
        const result = await tool(args, env);
        expect(result.status, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toMatch(message);
      }
      expect(await record(f)).toMatchObject({ released: 1 });
      expect(git(f.prepared.dir!, 'rev-list', '--count', 'HEAD')).toBe('1');
    },
  );
});
