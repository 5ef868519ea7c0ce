// A config repo on a real smart-HTTP Git remote (git http-backend behind Basic auth): clone,
// periodic sync, webhook, broken commits, outages, and no credential in any log.
import { createHmac } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asRepoFiles } from '../../../helpers/fixture-data.ts';
import { git, tempDir, writeFiles } from '../../../helpers/git-fixture.ts';
import { eventually, request } from '../../../helpers/http.ts';
import { expectMatchesOpenApi } from '../../../helpers/openapi.ts';
import { gitRemoteSuite, pushFiles } from '../../../helpers/remote-suite.ts';
import { READ_TOKEN, startTestService, type TestService } from '../../../helpers/service.ts';

const USER = 'config-bot';
const PASSWORD = 's3cret-git-password-7f2a';
const WEBHOOK_SECRET = 'webhook-secret-91c3';
const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';

const suite = gitRemoteSuite({ username: USER, password: PASSWORD });
const services: TestService[] = [];

afterEach(async () => {
  for (const s of services.splice(0)) {
    expect(s.logText()).not.toContain(PASSWORD);
    expect(s.logText()).not.toContain(WEBHOOK_SECRET);
    await s.close();
  }
});
async function start(env: Record<string, string>): Promise<TestService> {
  const service = await startTestService({
    GIT_USERNAME: USER,
    GIT_PASSWORD: PASSWORD,
    CONFIG_CLONE_DIR: join(tempDir(), 'clone'),
    CONFIG_SYNC_INTERVAL: '30s',
    ...env,
  });
  services.push(service);
  return service;
}

const revisionOf = async (s: TestService) =>
  (await request(s.url, NS, { token: READ_TOKEN })).headers['x-config-revision'];

describe('remote config repo', () => {
  it('clones with credentials and serves the branch head, with /ready showing branch and sync', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url });
    expect(await revisionOf(service)).toBe(git(repo.work, 'rev-parse', 'HEAD'));
    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    expect(ready).toMatchObject({
      status: 'ok',
      backend: 'git',
      view: 'full',
      branch: 'main',
      config_repo: repo.url,
      last_sync: { ok: true },
    });
    expect(ready.last_successful_sync).toBeTruthy();
    await expectMatchesOpenApi('get', '/ready', 200, ready);
    // Without a token: the same states, neither the URL nor the clone's folder.
    const open = (await request(service.url, '/ready')).json();
    expect(open).toMatchObject({ status: 'ok', view: 'public', branch: 'main', last_sync: { ok: true } });
    expect(open).not.toHaveProperty('config_repo');
    expect(open).not.toHaveProperty('clone_dir');
    await expectMatchesOpenApi('get', '/ready', 200, open);
  });

  it('serves a commit pushed by someone else within the sync interval', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '300ms' });
    const commit = pushFiles(repo.work, { 'namespaces/team-b.yaml': { labels: { pushed: 'yes' } } }, 'label team-b');
    await eventually(async () => (await revisionOf(service)) === commit, 3000);
    const body = (await request(service.url, NS, { token: READ_TOKEN })).json();
    expect(body.inputs.find((i: { id: string }) => i.id === 'team-b').labels).toEqual({ pushed: 'yes' });
  });

  it('syncs at once on a signed GitHub webhook, ignores other branches, refuses bad signatures', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '1h', WEBHOOK_SECRET });
    const commit = pushFiles(repo.work, { 'namespaces/team-b.yaml': { labels: { hook: 'github' } } }, 'hooked');
    const payload = JSON.stringify({ ref: 'refs/heads/main', after: commit });
    const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(payload).digest('hex')}`;

    const bad = await request(service.url, '/hooks/git', {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    });
    expect(bad.status).toBe(401);
    const unsigned = await request(service.url, '/hooks/git', {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(401);

    const other = JSON.stringify({ ref: 'refs/heads/feature' });
    const otherSig = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(other).digest('hex')}`;
    const ignored = await request(service.url, '/hooks/git', {
      method: 'POST',
      body: other,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': otherSig },
    });
    expect(ignored.status).toBe(202);
    expect(ignored.json().status).toBe('ignored');
    await expectMatchesOpenApi('post', '/hooks/git', 202, ignored.json());
    await expectMatchesOpenApi('post', '/hooks/git', 401, bad.json());
    // Neither the refused hooks nor the one for another branch asked for a sync.
    expect(service.logs.filter((l) => l.msg === 'webhook: syncing the config repo now')).toHaveLength(0);
    expect(await revisionOf(service)).not.toBe(commit);

    const ok = await request(service.url, '/hooks/git', {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature, 'x-github-event': 'push' },
    });
    expect(ok.status).toBe(202);
    expect(ok.json()).toEqual({ status: 'accepted' });
    await expectMatchesOpenApi('post', '/hooks/git', 202, ok.json());
    await eventually(async () => (await revisionOf(service)) === commit, 2000);
  });

  it('accepts the GitLab token header', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '1h', WEBHOOK_SECRET });
    const commit = pushFiles(repo.work, { 'namespaces/team-a.yaml': { labels: { hook: 'gitlab' } } }, 'gitlab hook');
    const wrong = await request(service.url, '/hooks/git', {
      method: 'POST',
      body: '{}',
      headers: { 'x-gitlab-token': 'nope' },
    });
    expect(wrong.status).toBe(401);
    const ok = await request(service.url, '/hooks/git', {
      method: 'POST',
      body: JSON.stringify({ ref: 'refs/heads/main' }),
      headers: { 'x-gitlab-token': WEBHOOK_SECRET },
    });
    expect(ok.status).toBe(202);
    await eventually(async () => (await revisionOf(service)) === commit, 2000);
  });

  it('answers 404 on the webhook when WEBHOOK_SECRET is not set', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url });
    expect((await request(service.url, '/hooks/git', { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('keeps the last good commit served when a broken one is pushed, and serves the fix', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '200ms' });
    const good = await revisionOf(service);
    const before = (await request(service.url, NS, { token: READ_TOKEN })).body;
    const broken = pushFiles(
      repo.work,
      { 'clusters/c1.yaml': 'cluster_name: [unclosed\n', 'namespaces/team-b.yaml': { labels: { x: 'y' } } },
      'broken',
    );
    await eventually(async () => (await request(service.url, '/ready')).json().last_load?.revision === broken, 3000);
    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    expect(ready).toMatchObject({
      status: 'ok',
      stale: true,
      revision: good,
      last_load: { ok: false, revision: broken },
    });
    expect(ready.last_load.problems[0].file).toBe('clusters/c1.yaml');
    expect((await request(service.url, '/ready')).json()).toMatchObject({
      stale: true,
      last_load: { revision: broken, problem_counts: { error: 1 } },
    });
    expect((await request(service.url, NS, { token: READ_TOKEN })).body.equals(before)).toBe(true);

    const fixed = pushFiles(repo.work, { 'clusters/c1.yaml': asRepoFiles()['clusters/c1.yaml'] }, 'fix');
    await eventually(async () => (await revisionOf(service)) === fixed, 3000);
    expect((await request(service.url, '/ready')).json()).toMatchObject({ stale: false, revision: fixed });
  });

  it('follows a force-pushed branch, with a warning', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '200ms' });
    const v1 = pushFiles(repo.work, { 'namespaces/team-b.yaml': { labels: { v: '1' } } }, 'v1');
    await eventually(async () => (await revisionOf(service)) === v1, 3000);
    git(repo.work, 'reset', '-q', '--hard', 'HEAD~1');
    writeFiles(repo.work, { 'namespaces/team-b.yaml': { labels: { v: 'rewritten' } } });
    git(repo.work, 'commit', '-qam', 'rewritten');
    git(repo.work, 'push', '-q', '--force', 'origin', 'HEAD:main');
    const rewritten = git(repo.work, 'rev-parse', 'HEAD');
    await eventually(async () => (await revisionOf(service)) === rewritten, 3000);
    expect(service.logText()).toContain('force-pushed');
  });

  it('starts unready when the remote is down and there is no clone, then becomes ready on recovery', async () => {
    const repo = suite.newRepo('config');
    await suite.remote.down();
    try {
      const service = await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '2s' });
      expect((await request(service.url, '/health')).status).toBe(200);
      const ready = await request(service.url, '/ready');
      expect(ready.status).toBe(503);
      expect(ready.json().last_sync.ok).toBe(false);
      await expectMatchesOpenApi('get', '/ready', 503, ready.json());
      expect((await request(service.url, NS, { token: READ_TOKEN })).status).toBe(503);
      await suite.remote.up();
      await eventually(async () => (await request(service.url, '/ready')).status === 200, 5000);
      expect((await request(service.url, NS, { token: READ_TOKEN })).status).toBe(200);
    } finally {
      await suite.remote.up().catch(() => undefined);
    }
  });

  it('serves an existing clone while the remote is down, and reports the failing sync', async () => {
    const repo = suite.newRepo('config');
    const cloneDir = join(tempDir(), 'clone');
    const first = await start({ CONFIG_REPO: repo.url, CONFIG_CLONE_DIR: cloneDir });
    const served = await revisionOf(first);
    const bytes = (await request(first.url, NS, { token: READ_TOKEN })).body;
    await first.close();
    services.splice(services.indexOf(first), 1);

    await suite.remote.down();
    try {
      const second = await start({ CONFIG_REPO: repo.url, CONFIG_CLONE_DIR: cloneDir, CONFIG_SYNC_INTERVAL: '1s' });
      const ready = await request(second.url, '/ready', { token: READ_TOKEN });
      expect(ready.status).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ok',
        revision: served,
        last_sync: { ok: false, reason: 'remote_unreachable' },
      });
      expect(ready.json().last_sync.error).toBeTruthy();
      expect((await request(second.url, '/ready')).json().last_sync).toEqual({
        at: expect.any(String),
        ok: false,
        reason: 'remote_unreachable',
      });
      const read = await request(second.url, NS, { token: READ_TOKEN });
      expect(read.body.equals(bytes)).toBe(true);
      await suite.remote.up();
      await eventually(async () => (await request(second.url, '/ready')).json().last_sync?.ok === true, 5000);
    } finally {
      await suite.remote.up().catch(() => undefined);
    }
  });

  it('authenticates with GIT_TOKEN as the Basic password', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, GIT_USERNAME: USER, GIT_PASSWORD: '', GIT_TOKEN: PASSWORD });
    expect((await request(service.url, '/ready')).json()).toMatchObject({ status: 'ok', last_sync: { ok: true } });
  });

  it('reports wrong credentials without showing them', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, GIT_USERNAME: USER, GIT_PASSWORD: 'wrong-password-x1' });
    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    expect(ready.status).toBe('unavailable');
    expect(ready.last_sync).toMatchObject({ ok: false, reason: 'auth_failed' });
    expect(ready.last_sync.error).toMatch(/^authentication failed: the Git remote .* refused the credentials/);
    expect(JSON.stringify(ready)).not.toContain('wrong-password-x1');
    expect(service.logText()).not.toContain('wrong-password-x1');
  });

  it('never shows credentials given in the URL', async () => {
    const repo = suite.newRepo('config');
    const service = await start({
      CONFIG_REPO: repo.url.replace('http://', `http://${USER}:${PASSWORD}@`),
      GIT_USERNAME: '',
      GIT_PASSWORD: '',
    });
    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    expect(ready.status).toBe('ok');
    expect(ready.config_repo).toBe(repo.url);
    expect(JSON.stringify(ready)).not.toContain(PASSWORD);
  });
});

describe('crud mode on a remote config repo', () => {
  const WRITE = 'write-token-remote';
  const send = (s: TestService, method: string, path: string, body?: unknown) =>
    request(s.url, path, {
      method,
      token: WRITE,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
    });
  const remoteLog = (name: string) => git(suite.remote.path(name), 'log', '--format=%s', 'main').split('\n');

  it('pushes each write before answering, so the remote has it when the response arrives', async () => {
    const repo = suite.newRepo('config');
    const service = await start({
      CONFIG_REPO: repo.url,
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE,
      GIT_AUTHOR_NAME: 'Fleet UI',
    });
    const res = await send(service, 'PATCH', '/namespaces/team-a', { labels: { team: 'z' } });
    expect(res.status).toBe(200);
    const remoteHead = git(suite.remote.path(repo.name), 'rev-parse', 'main');
    expect(await revisionOf(service)).toBe(remoteHead);
    expect(remoteLog(repo.name)[0]).toBe('namespaces: update team-a');
    expect(git(suite.remote.path(repo.name), 'log', '-1', '--format=%an', 'main')).toBe('Fleet UI');
    const file = git(suite.remote.path(repo.name), 'show', 'main:namespaces/team-a.yaml');
    expect(file).toContain('team: z'); // written as the file spelled the value before
    expect(file).toContain('app.kubernetes.io/part-of'); // the other label is kept
    // And the change is served at once.
    const ns = (await request(service.url, NS, { token: READ_TOKEN })).json().inputs;
    expect(ns.find((i: { id: string }) => i.id === 'team-a').labels.team).toBe('z');
  });

  it('applies a write on top of a commit pushed by someone else just before, keeping both', async () => {
    const repo = suite.newRepo('config');
    // A sync interval long enough that the service cannot have seen the other commit.
    const service = await start({
      CONFIG_REPO: repo.url,
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE,
      CONFIG_SYNC_INTERVAL: '1h',
    });
    const served = await revisionOf(service);
    // Someone merges a pull request; the service's first push is refused as not a fast-forward.
    pushFiles(repo.work, { 'namespaces/team-a.yaml': { labels: { merged: 'pr-42' } } }, 'merge PR 42');
    const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { from: 'api' } });
    expect(res.status).toBe(200);
    expect(remoteLog(repo.name).slice(0, 2)).toEqual(['namespaces: update team-b', 'merge PR 42']);
    expect(git(suite.remote.path(repo.name), 'rev-parse', 'main~2')).toBe(served);
    expect(
      service.logs.some((l) => l.msg === 'the store moved under a write; applying it again on its new revision'),
    ).toBe(true);
    const ns = (await request(service.url, NS, { token: READ_TOKEN })).json().inputs;
    expect(ns.find((i: { id: string }) => i.id === 'team-a').labels).toEqual({ merged: 'pr-42' });
    expect(ns.find((i: { id: string }) => i.id === 'team-b').labels).toEqual({ from: 'api' });
  });

  it('waits out a lock the remote holds on its branch: the push is tried again and lands', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE });
    // Another push is landing on the host: its branch is locked, the way git locks it.
    const lock = join(suite.remote.path(repo.name), 'refs/heads/main.lock');
    writeFileSync(lock, '');
    const write = send(service, 'PATCH', '/namespaces/team-b', { labels: { after: 'lock' } });
    await service.untilLogged((l) => l.msg === 'the Git remote did not take the push; trying again');
    rmSync(lock);
    const res = await write;
    expect(res.status).toBe(200);
    expect(remoteLog(repo.name)[0]).toBe('namespaces: update team-b');
    expect(await revisionOf(service)).toBe(git(suite.remote.path(repo.name), 'rev-parse', 'main'));
  });

  it('refuses a write that no longer validates on the new head', async () => {
    const repo = suite.newRepo('config');
    const service = await start({ CONFIG_REPO: repo.url, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE });
    // Someone else deletes the namespace definition; the service has not synced yet.
    git(repo.work, 'rm', '-q', 'namespaces/team-a.yaml');
    writeFiles(repo.work, {
      'clusters/c1.yaml': { ...(asRepoFiles()['clusters/c1.yaml'] as object), namespaces: [{ id: 'team-b' }] },
    });
    git(repo.work, 'commit', '-qam', 'drop team-a');
    git(repo.work, 'push', '-q', 'origin', 'HEAD:main');
    const res = await send(service, 'PATCH', '/clusters/c0', { namespaces: [{ id: 'team-a' }] });
    expect(res.status).toBe(400);
    expect(res.json().error).toBe('validation_error');
    expect(remoteLog(repo.name)[0]).toBe('drop team-a');
  });

  it('answers 503 when the remote is unreachable and leaves no local commit behind', async () => {
    const repo = suite.newRepo('config');
    const cloneDir = join(tempDir(), 'clone');
    const service = await start({
      CONFIG_REPO: repo.url,
      CONFIG_CLONE_DIR: cloneDir,
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE,
    });
    const before = git(cloneDir, 'for-each-ref', '--format=%(refname) %(objectname)');
    await suite.remote.down();
    try {
      const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { lost: 'no' } });
      expect(res.status).toBe(503);
      expect(res.json().error).toBe('store_error');
      expect(res.json().message).toMatch(/could not be reached/);
      expect(JSON.stringify(res.json())).not.toContain(PASSWORD);
      expect(git(cloneDir, 'for-each-ref', '--format=%(refname) %(objectname)')).toBe(before);
      expect(
        (await request(service.url, NS, { token: READ_TOKEN }))
          .json()
          .inputs.find((i: { id: string }) => i.id === 'team-b').labels,
      ).toEqual({});
    } finally {
      await suite.remote.up();
    }
    const retry = await send(service, 'PATCH', '/namespaces/team-b', { labels: { lost: 'no' } });
    expect(retry.status).toBe(200);
    expect(remoteLog(repo.name)[0]).toBe('namespaces: update team-b');
  });

  it('two read replicas and one crud instance serve identical bytes after a write', async () => {
    const repo = suite.newRepo('config');
    const crud = await start({ CONFIG_REPO: repo.url, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE });
    const replicas = [
      await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '200ms' }),
      await start({ CONFIG_REPO: repo.url, CONFIG_SYNC_INTERVAL: '200ms' }),
    ];
    const write = await send(crud, 'PUT', '/namespaces/team-b', {
      id: 'team-b',
      labels: { replicated: 'yes' },
      annotations: {},
    });
    expect(write.status).toBe(200);
    const commit = git(suite.remote.path(repo.name), 'rev-parse', 'main');
    for (const replica of replicas) await eventually(async () => (await revisionOf(replica)) === commit, 3000);
    const paths = [
      '/api/v2/gitops/clusters',
      NS,
      '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components',
      '/api/v2/gitops/clusters/c1.k8s.example.com/rolebindings',
    ];
    for (const path of paths) {
      const bodies = await Promise.all(
        [crud, ...replicas].map(async (s) => (await request(s.url, path, { token: READ_TOKEN })).body),
      );
      expect(bodies[1].equals(bodies[0]), path).toBe(true);
      expect(bodies[2].equals(bodies[0]), path).toBe(true);
    }
  });
});
