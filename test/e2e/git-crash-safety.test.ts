// `kill -9` of the service's whole process group at a random instant of a burst of writes,
// ten times, each time restarting at once while the killed process is still unreaped (its
// parent never waits for it, so its process id still answers kill(pid, 0)): every restart
// repairs what the kill left before it answers — `git status` is clean, `git fsck` finds
// nothing, its first write succeeds; at the end every write answered 2xx is in HEAD, and a
// person's `git commit -am` changes only what the person changed.
//
// The instants are drawn from a seeded generator: the seed is printed, and CRASH_SEED=<seed>
// replays a run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { crudRepo, gitOut } from '../helpers/crud.ts';
import { git } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { letTimePass } from '../helpers/pace.ts';
import { processState } from '../helpers/proc-states.ts';
import { type ServiceGroup, startServiceGroup } from '../helpers/process.ts';
import { WRITE_TOKEN } from '../helpers/service.ts';

const ROUNDS = 10;
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`git-crash-safety: CRASH_SEED=${SEED}`);

const groups: ServiceGroup[] = [];
afterAll(async () => {
  // The last restart's service is alive (and one cut short by a failure may be): kill every
  // group before its parent ends, or it outlives the test run.
  for (const g of groups) {
    try {
      g.killGroup();
    } catch {
      // ESRCH: that group is gone already.
    }
  }
  await Promise.all(groups.map((g) => g.endParent()));
});

function write(url: string, method: string, path: string, body: unknown) {
  return request(url, path, {
    method,
    token: WRITE_TOKEN,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

it(
  `survives ${ROUNDS} kill -9 of the process group during writes, restarted at once: every first write succeeds, ` +
    `fsck and status clean, every acknowledged write in HEAD`,
  async () => {
    // When, in each round's burst, the group is killed: this many ms after the burst's first
    // answered write (so that a slow, loaded machine still kills amid writes, not before them).
    const instants = fc.sample(fc.integer({ min: 0, max: 250 }), { seed: SEED, numRuns: ROUNDS });
    const dir = crudRepo();
    const env = {
      API_MODE: 'crud',
      STORE_BACKEND: 'git',
      CONFIG_REPO: dir,
      CRUD_AUTH_TOKEN: WRITE_TOKEN,
      LOG_LEVEL: 'info',
    };
    const created: string[] = [];
    let lastCounter = 0;
    let next = 0;
    let previous: ServiceGroup | undefined;
    const restart = async (round: number) => {
      const service = await startServiceGroup(env);
      groups.push(service);
      const context = `restart ${round} (CRASH_SEED=${SEED})`;
      // The previous service is dead but still unreaped: the restart must not take it for alive.
      if (previous && process.platform === 'linux')
        expect(processState(previous.pid), `the killed service before ${context}`).toBe('Z');
      // What the kill left was repaired before the service answered, and nothing is damaged.
      expect(gitOut(dir, 'status', '--porcelain'), `status after ${context}`).toBe('');
      expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress'), `fsck after ${context}`).toBe('');
      const id = `first-${round}`;
      const first = await write(service.url, 'POST', '/namespaces', { id });
      expect(first.status, `first write after ${context}: ${first.text}`).toBe(201);
      created.push(id);
      return service;
    };
    for (let round = 0; round < ROUNDS; round++) {
      const service = await restart(round);
      let stopped = false;
      let firstAnswered!: () => void;
      const answered = new Promise<void>((resolve) => (firstAnswered = resolve));
      const creator = async () => {
        while (!stopped) {
          const id = `r${round}-${next++}`;
          const res = await write(service.url, 'POST', '/namespaces', { id }).catch(() => undefined);
          if (res?.status === 201) {
            created.push(id);
            firstAnswered();
          } else if (res) expect.fail(`POST ${id}: ${res.status} ${res.text}`);
        }
      };
      const patcher = async () => {
        for (let n = lastCounter + 1; !stopped; n++) {
          const res = await write(service.url, 'PATCH', '/namespaces/team-a', { labels: { counter: String(n) } }).catch(
            () => undefined,
          );
          if (res?.status === 200) {
            lastCounter = n;
            firstAnswered();
          } else if (res) expect.fail(`PATCH counter ${n}: ${res.status} ${res.text}`);
        }
      };
      const burst = Promise.all([creator(), creator(), patcher()]);
      await answered;
      // The kill comes at the round's seeded instant after the first answer: the time is the point.
      await letTimePass(instants[round]);
      service.killGroup();
      stopped = true;
      // Only the answers in flight are awaited (they fail at once); the process is not reaped.
      await burst;
      previous = service;
    }
    // One more start repairs what the last kill left; then everything is checked.
    await restart(ROUNDS);
    // Writes were under way when the kills came: every round's burst had writes answered.
    expect(created.filter((id) => id.startsWith('r')).length + lastCounter).toBeGreaterThanOrEqual(ROUNDS);
    const inHead = new Set(gitOut(dir, 'ls-tree', '--name-only', 'HEAD', 'namespaces/').split('\n'));
    for (const id of created) expect(inHead.has(`namespaces/${id}.yaml`), `${id} (CRASH_SEED=${SEED})`).toBe(true);
    // The counter in HEAD is the last one answered, or the one in flight when the process died.
    const counter = Number(/counter: "(\d+)"/.exec(gitOut(dir, 'show', 'HEAD:namespaces/team-a.yaml'))?.[1]);
    expect([lastCounter, lastCounter + 1]).toContain(counter);

    writeFileSync(join(dir, 'namespaces/team-b.yaml'), 'id: team-b\nlabels:\n  person: "edit"\nannotations: {}\n');
    git(dir, 'commit', '-q', '-am', 'a person edits team-b');
    expect(gitOut(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('namespaces/team-b.yaml');
    expect(gitOut(dir, 'status', '--porcelain')).toBe('');
  },
  180_000,
);
