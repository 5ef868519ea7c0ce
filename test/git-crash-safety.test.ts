// `kill -9` at random instants during a burst of writes, ten times, restarting the service
// each time: the repository stays whole (fsck), HEAD, index and working tree agree (status
// clean), every write that was answered 2xx is in HEAD, and a person's `git commit -am`
// afterwards changes only what the person changed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { crudRepo, gitOut } from './helpers/crud.ts';
import { git } from './helpers/git-fixture.ts';
import { request } from './helpers/http.ts';
import { startServiceProcess } from './helpers/process.ts';
import { WRITE_TOKEN } from './helpers/service.ts';

const ROUNDS = 10;

function write(url: string, method: string, path: string, body: unknown) {
  return request(url, path, { method, token: WRITE_TOKEN, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

it(`survives ${ROUNDS} kill -9 during writes: fsck and status clean, every acknowledged write in HEAD`, async () => {
  const dir = crudRepo();
  const env = { API_MODE: 'crud', STORE_BACKEND: 'git', CONFIG_REPO: dir, CRUD_AUTH_TOKEN: WRITE_TOKEN, LOG_LEVEL: 'info' };
  const created: string[] = [];
  let lastCounter = 0;
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const service = await startServiceProcess(env);
    // The previous round's stop was repaired before the service answered.
    expect(gitOut(dir, 'status', '--porcelain'), `status after restart ${round}`).toBe('');
    let stopped = false;
    const creator = async () => {
      while (!stopped) {
        const id = `r${round}-${next++}`;
        const res = await write(service.url, 'POST', '/namespaces', { id }).catch(() => undefined);
        if (res?.status === 201) created.push(id);
        else if (res) expect.fail(`POST ${id}: ${res.status} ${res.text}`);
      }
    };
    const patcher = async () => {
      for (let n = lastCounter + 1; !stopped; n++) {
        const res = await write(service.url, 'PATCH', '/namespaces/team-a', { labels: { counter: String(n) } }).catch(() => undefined);
        if (res?.status === 200) lastCounter = n;
        else if (res) expect.fail(`PATCH counter ${n}: ${res.status} ${res.text}`);
      }
    };
    const burst = Promise.all([creator(), creator(), patcher()]);
    // A random instant inside the burst: the first writes are under way by then.
    await new Promise((r) => setTimeout(r, 30 + Math.random() * 250));
    await service.stop('SIGKILL');
    stopped = true;
    await burst;
  }
  // One more start repairs what the last kill left; then everything is checked.
  const service = await startServiceProcess(env);
  await service.stop('SIGTERM');
  expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
  expect(gitOut(dir, 'status', '--porcelain')).toBe('');
  expect(created.length).toBeGreaterThan(ROUNDS);
  const inHead = new Set(gitOut(dir, 'ls-tree', '--name-only', 'HEAD', 'namespaces/').split('\n'));
  for (const id of created) expect(inHead.has(`namespaces/${id}.yaml`), id).toBe(true);
  // The counter in HEAD is the last one answered, or the one in flight when the process died.
  const counter = Number(/counter: "(\d+)"/.exec(gitOut(dir, 'show', 'HEAD:namespaces/team-a.yaml'))?.[1]);
  expect([lastCounter, lastCounter + 1]).toContain(counter);

  writeFileSync(join(dir, 'namespaces/team-b.yaml'), 'id: team-b\nlabels:\n  person: "edit"\nannotations: {}\n');
  git(dir, 'commit', '-q', '-am', 'a person edits team-b');
  expect(gitOut(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('namespaces/team-b.yaml');
}, 120_000);
