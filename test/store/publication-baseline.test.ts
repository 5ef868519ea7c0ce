// Publication against the revision served before: the shrink guard and what lets a meant
// shrink through, a dangling reference a repo already had (skipped, as the contract says, and
// no obstacle to editing its cluster), and a restart on a refused head.
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBackend } from '../helpers/backends.ts';
import { send } from '../helpers/crud.ts';
import { asRepoFiles, fixtureData } from '../helpers/fixture-data.ts';
import { commitAll, git, makeConfigRepo, type RepoFiles, writeFiles } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';
import { sqlInOtherProcess } from '../helpers/sqlite.ts';

const services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});
async function start(env: Record<string, string>): Promise<TestService> {
  const service = await startTestService(env);
  services.push(service);
  return service;
}

async function judged(service: TestService, revision: string): Promise<Record<string, any>> {
  await eventually(
    async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().last_load?.revision === revision,
    5000,
  );
  return (await request(service.url, '/ready', { token: READ_TOKEN })).json();
}

/** Four clusters with two namespaces each: enough inputs (8) plus components for the guard's share rule. */
const fleet = (ns: Record<string, string[]> = {}): RepoFiles => {
  const files: RepoFiles = {
    'platform_components/app.yaml': { component_path: 'app', component_version: '1', oci_url: 'oci://x', oci_tag: '1' },
    'namespaces/team-a.yaml': { labels: { team: 'a' } },
    'namespaces/team-b.yaml': { labels: { team: 'b' } },
  };
  for (const id of ['a', 'b', 'c', 'd']) {
    files[`clusters/${id}.yaml`] = {
      cluster_name: id,
      cluster_dns: `${id}.example.com`,
      environment: 'prod',
      platform_components: [{ id: 'app', enabled: true }],
      namespaces: (ns[id] ?? ['team-a', 'team-b']).map((n) => ({ id: n })),
    };
  }
  return files;
};
const nsOf = (service: TestService, id: string) =>
  request(service.url, `/api/v2/gitops/clusters/${id}.example.com/namespaces`, { token: READ_TOKEN });

describe('the shrink guard', () => {
  it(
    'refuses a commit that empties the lists of 2 clusters; publishes it with the trailer; a single cluster emptied ' +
      'passes',
    async () => {
      const dir = makeConfigRepo(fleet());
      const service = await start({ CONFIG_REPO: dir });
      const before = await nsOf(service, 'a');

      writeFiles(dir, fleet({ a: [], b: [] }));
      const two = commitAll(dir, 'drop the namespaces of a and b');
      const refused = await judged(service, two);
      expect(refused.stale).toBe(true);
      expect(refused.last_load.problems).toEqual([
        expect.objectContaining({
          code: 'shrink_guard',
          message: expect.stringContaining('a (namespaces), b (namespaces)'),
        }),
      ]);
      expect((await nsOf(service, 'a')).body.equals(before.body)).toBe(true);

      git(dir, 'commit', '-q', '--allow-empty', '-m', 'decommission a and b\n\nGitops-Allow-Shrink: yes');
      const meant = git(dir, 'rev-parse', 'HEAD');
      expect(await judged(service, meant)).toMatchObject({ stale: false, revision: meant });
      expect((await nsOf(service, 'a')).text).toBe('{"inputs":[]}');

      writeFiles(dir, fleet({ a: [], b: [], c: [] }));
      const one = commitAll(dir, 'decommission c');
      expect(await judged(service, one)).toMatchObject({ stale: false, revision: one });
      expect((await nsOf(service, 'c')).text).toBe('{"inputs":[]}');
    },
  );

  it(
    "refuses losing more than half of the fleet's inputs; " + 'GUARD_ACCEPT_REVISION lets that revision through',
    async () => {
      const dir = makeConfigRepo(fleet());
      const service = await start({ CONFIG_REPO: dir });
      // Three of four clusters removed: 12 inputs down to 3, and no list emptied (they answer 404).
      const smaller = Object.fromEntries(
        Object.entries(fleet()).filter(([path]) => !/^clusters\/[bcd]\.yaml$/.test(path)),
      );
      git(dir, 'rm', '-q', 'clusters/b.yaml', 'clusters/c.yaml', 'clusters/d.yaml');
      writeFiles(dir, smaller);
      const cut = commitAll(dir, 'remove three clusters');
      expect((await judged(service, cut)).last_load.problems).toEqual([
        expect.objectContaining({
          code: 'shrink_guard',
          message: expect.stringContaining("the fleet's inputs would drop from 12 to 3"),
        }),
      ]);
      await service.close();
      services.splice(0);

      const accepting = await start({ CONFIG_REPO: dir, GUARD_ACCEPT_REVISION: cut.slice(0, 10) });
      expect((await request(accepting.url, '/ready', { token: READ_TOKEN })).json()).toMatchObject({
        stale: false,
        revision: cut,
      });
    },
  );

  it('applies to SQLite too, against the facts it kept of the revision it published', async () => {
    const prepared = await prepareBackend('sqlite', fixtureData);
    const env = { ...prepared.env, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN };
    const service = await start(env);
    expect(
      (
        await send(service, 'POST', '/clusters', {
          id: 'c2',
          cluster_name: 'two',
          cluster_dns: 'c2.example.com',
          environment: 'qa',
          namespaces: [{ id: 'team-a' }],
        })
      ).status,
    ).toBe(201);
    // Another process empties both clusters that have namespaces.
    sqlInOtherProcess(prepared.dbPath!, 'DELETE FROM cluster_namespaces');
    await eventually(
      async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().stale === true,
      3000,
    );
    expect((await request(service.url, '/ready', { token: READ_TOKEN })).json().last_load.problems).toEqual([
      expect.objectContaining({ code: 'shrink_guard' }),
    ]);
    // A restart judges the database against the facts kept, not as a first revision: still refused.
    await service.close();
    services.splice(0);
    const again = await start(env);
    const ready = await request(again.url, '/ready', { token: READ_TOKEN });
    expect(ready.status).toBe(503);
    expect(ready.json().last_load.problems).toEqual([expect.objectContaining({ code: 'shrink_guard' })]);
    expect(
      (await request(again.url, '/api/v2/gitops/clusters/c2.example.com/namespaces', { token: READ_TOKEN })).status,
    ).toBe(503);
  });
});

describe('a dangling reference the repo already had', () => {
  // c1 of the fixture references missing-ns, missing-rb and not-in-catalog from its first revision on.
  it.each(['git', 'git-remote', 'sqlite', 'memory'] as const)(
    'on %s: is served as skipped, the cluster can be patched, and a new one is refused',
    async (backend) => {
      const prepared = await prepareBackend(backend, fixtureData);
      const service = await start({ ...prepared.env, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN });
      const ns = (
        await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', { token: READ_TOKEN })
      ).json();
      expect(ns.inputs.map((i: { id: string }) => i.id)).toEqual(['team-b', 'team-a']);
      const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
      expect(ready).toMatchObject({ status: 'ok', stale: false });

      const patched = await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '5' } } });
      expect(patched.status).toBe(200);
      expect(patched.json().namespaces).toEqual([{ id: 'team-b' }, { id: 'missing-ns' }, { id: 'team-a' }]);

      const added = await send(service, 'PATCH', '/clusters/c1', {
        namespaces: [{ id: 'team-b' }, { id: 'missing-ns' }, { id: 'team-a' }, { id: 'typo-ns' }],
      });
      expect(added.status).toBe(400);
      expect(added.json().details).toEqual([
        { path: '/namespaces/3/id', message: 'references namespaces "typo-ns", which does not exist' },
      ]);
    },
  );

  it('a new one by commit is refused, while the old ones stay warnings', async () => {
    const files = asRepoFiles();
    const dir = makeConfigRepo(files);
    const service = await start({ CONFIG_REPO: dir });
    const c1 = files['clusters/c1.yaml'] as Record<string, any>;
    writeFiles(dir, { 'clusters/c1.yaml': { ...c1, rolebindings: [...c1.rolebindings, { id: 'typo-rb' }] } });
    const head = commitAll(dir, 'a typo');
    const ready = await judged(service, head);
    expect(ready.last_load.problems).toEqual([
      expect.objectContaining({ code: 'dangling_reference', field: '/rolebindings/3/id' }),
    ]);
  });
});

describe('a restart on a refused head', () => {
  it.each(['git', 'git-remote'] as const)(
    'on %s: serves the newest good ancestor, and /ready says the head was refused',
    async (backend) => {
      const prepared = await prepareBackend(backend, fixtureData, fleet());
      const service = await start(prepared.env);
      const work = prepared.dir ?? prepared.remote!.work;
      writeFiles(work, fleet({ a: ['team-a'] }));
      const good = commitAll(work, 'a keeps one namespace');
      writeFiles(work, fleet({ a: [], b: [], c: ['team-a'] }));
      const bad = commitAll(work, 'empties a and b');
      if (prepared.remote) git(work, 'push', '-q', 'origin', 'HEAD:main');
      await service.close();
      services.splice(0);

      // A new process, with no memory of what was served: it reads the history.
      const restarted = await start(prepared.env);
      const ready = (await request(restarted.url, '/ready', { token: READ_TOKEN })).json();
      expect(ready).toMatchObject({
        status: 'ok',
        revision: good,
        stale: true,
        last_load: { ok: false, revision: bad },
      });
      expect(ready.last_load.problems).toEqual([expect.objectContaining({ code: 'shrink_guard' })]);
      expect((await nsOf(restarted, 'a')).json().inputs.map((i: { id: string }) => i.id)).toEqual(['team-a']);
      expect((await nsOf(restarted, 'b')).headers['x-config-revision']).toBe(good);
    },
  );

  it(
    'judges each commit of the history against the newest ' + 'one that passed, so a refused shrink stays refused',
    async () => {
      const dir = makeConfigRepo(fleet());
      writeFiles(dir, fleet({ a: [], b: [] }));
      const shrink = commitAll(dir, 'empties a and b');
      writeFiles(dir, { 'namespaces/team-a.yaml': { labels: { team: 'a', tier: 'gold' } } });
      const later = commitAll(dir, 'a label');
      // Against its parent alone, the last commit would pass; against the last good one, it does not.
      const service = await start({ CONFIG_REPO: dir });
      const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
      expect(ready.revision).toBe(git(dir, 'rev-parse', `${shrink}~1`));
      expect(ready.last_load).toMatchObject({ ok: false, revision: later });
    },
  );
});
