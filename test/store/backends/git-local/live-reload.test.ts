// A local config repo is watched: edits are served within a second, a broken revision keeps
// the last good one served, and /ready says why.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asRepoFiles } from '../../../helpers/fixture-data.ts';
import { commitAll, git, makeConfigRepo, writeFiles } from '../../../helpers/git-fixture.ts';
import { eventually, request } from '../../../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../../../helpers/service.ts';

const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';
let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function labelsOfTeamB(url: string): Promise<unknown> {
  const res = await request(url, NS, { token: READ_TOKEN });
  return res.json().inputs.find((i: { id: string }) => i.id === 'team-b')?.labels;
}

describe('git backend on a local directory', () => {
  it('serves a live edit within a second, marking the revision dirty, then the commit id once committed', async () => {
    const dir = makeConfigRepo(asRepoFiles());
    service = await startTestService({ CONFIG_REPO: dir });
    const head = git(dir, 'rev-parse', 'HEAD');
    expect((await request(service.url, NS, { token: READ_TOKEN })).headers['x-config-revision']).toBe(head);

    writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { edited: 'yes' } } });
    const editedAt = Date.now();
    await eventually(async () => JSON.stringify(await labelsOfTeamB(service!.url)) === '{"edited":"yes"}', 1000);
    expect(Date.now() - editedAt).toBeLessThan(1000);
    const dirty = (await request(service.url, NS, { token: READ_TOKEN })).headers['x-config-revision'];
    expect(dirty).toMatch(new RegExp(`^${head}\\+dirty\\.[0-9a-f]{12}$`));

    const commit = commitAll(dir, 'label team-b');
    await eventually(
      async () => (await request(service!.url, NS, { token: READ_TOKEN })).headers['x-config-revision'] === commit,
      2000,
    );
  });

  it('keeps the last good revision served when a file breaks, says why on /ready, and serves the fix', async () => {
    const dir = makeConfigRepo(asRepoFiles());
    service = await startTestService({ CONFIG_REPO: dir });
    const before = await request(service.url, NS, { token: READ_TOKEN });

    // A good edit and a broken file land together: neither may be served (all-or-nothing).
    writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { half: 'applied' } } });
    writeFileSync(join(dir, 'clusters/c1.yaml'), 'cluster_name: [oops\n');
    await eventually(
      async () => (await request(service!.url, '/ready', { token: READ_TOKEN })).json().last_load?.ok === false,
      2000,
    );

    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    expect(ready).toMatchObject({ status: 'ok', stale: true, revision: before.headers['x-config-revision'] });
    expect(ready.last_load.problems[0]).toMatchObject({ file: 'clusters/c1.yaml' });
    expect(ready.last_load.problems[0].message).toContain('YAML syntax error');
    const during = await request(service.url, NS, { token: READ_TOKEN });
    expect(during.status).toBe(200);
    expect(during.body.equals(before.body)).toBe(true);
    expect(service.logText()).toContain('still serving revision');

    writeFiles(dir, { 'clusters/c1.yaml': asRepoFiles()['clusters/c1.yaml'] });
    await eventually(async () => JSON.stringify(await labelsOfTeamB(service!.url)) === '{"half":"applied"}', 2000);
    expect((await request(service.url, '/ready', { token: READ_TOKEN })).json()).toMatchObject({
      stale: false,
      last_load: { ok: true },
    });
  });

  it('refuses a schema error and a duplicate cluster_dns the same way', async () => {
    const dir = makeConfigRepo(asRepoFiles());
    service = await startTestService({ CONFIG_REPO: dir });
    writeFiles(dir, {
      'clusters/c2.yaml': { cluster_name: 'two', cluster_dns: 'C1.k8s.example.com', environment: 'dev' },
    });
    await eventually(
      async () => (await request(service!.url, '/ready', { token: READ_TOKEN })).json().last_load?.ok === false,
      2000,
    );
    const problems = (await request(service.url, '/ready', { token: READ_TOKEN })).json().last_load.problems;
    expect(problems[0]).toMatchObject({
      code: 'duplicate_cluster_dns',
      severity: 'error',
      file: 'clusters/c2.yaml',
      field: '/cluster_dns',
    });

    writeFiles(dir, {
      'clusters/c2.yaml': { cluster_name: 'two', cluster_dns: 'c2.example.com', environment: 'staging' },
    });
    await eventually(
      async () =>
        (await request(service!.url, '/ready', { token: READ_TOKEN })).json().last_load?.problems?.[0]?.field ===
        '/environment',
      2000,
    );
    expect(
      (await request(service.url, '/api/v2/gitops/clusters/c2.example.com/namespaces', { token: READ_TOKEN })).status,
    ).toBe(404);
  });

  it('serves a deletion and an added cluster', async () => {
    const files = asRepoFiles();
    const dir = makeConfigRepo(files);
    service = await startTestService({ CONFIG_REPO: dir });
    // The definition goes, and so does the one reference to it.
    rmSync(join(dir, 'namespaces/team-b.yaml'));
    const c1 = files['clusters/c1.yaml'] as { namespaces: { id: string }[] };
    writeFiles(dir, {
      'clusters/c1.yaml': { ...c1, namespaces: c1.namespaces.filter((n) => n.id !== 'team-b') },
      'clusters/c9.yml': { cluster_name: 'nine', cluster_dns: 'c9.example.com', environment: 'uat' },
    });
    await eventually(
      async () =>
        (await request(service!.url, '/api/v2/gitops/clusters/c9.example.com/namespaces', { token: READ_TOKEN }))
          .status === 200,
      2000,
    );
    const ns = (await request(service.url, NS, { token: READ_TOKEN })).json();
    expect(ns.inputs.map((i: { id: string }) => i.id)).toEqual(['team-a']);
  });

  it('refuses deleting a definition that clusters still reference (a new dangling reference)', async () => {
    const dir = makeConfigRepo(asRepoFiles());
    service = await startTestService({ CONFIG_REPO: dir });
    const before = await request(service.url, NS, { token: READ_TOKEN });
    rmSync(join(dir, 'namespaces/team-b.yaml'));
    await eventually(
      async () => (await request(service!.url, '/ready', { token: READ_TOKEN })).json().stale === true,
      2000,
    );
    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    expect(ready.last_load.problems).toEqual([
      expect.objectContaining({
        code: 'dangling_reference',
        severity: 'error',
        record: 'clusters/c1',
        field: '/namespaces/0/id',
        file: 'clusters/c1.yaml',
      }),
    ]);
    const after = await request(service.url, NS, { token: READ_TOKEN });
    expect(after.body.equals(before.body)).toBe(true);
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('starts unready on a broken repo, then serves once it is fixed', async () => {
    const files = asRepoFiles();
    const dir = makeConfigRepo({ ...files, 'platform_components/podinfo.yaml': 'id: podinfo\nunknown_field: 1\n' });
    service = await startTestService({ CONFIG_REPO: dir });
    const ready = await request(service.url, '/ready', { token: READ_TOKEN });
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', error: 'unavailable', last_load: { ok: false } });
    const read = await request(service.url, NS, { token: READ_TOKEN });
    expect(read.status).toBe(503);
    expect(read.json().error).toBe('unavailable');

    writeFiles(dir, { 'platform_components/podinfo.yaml': files['platform_components/podinfo.yaml'] });
    await eventually(async () => (await request(service!.url, NS, { token: READ_TOKEN })).status === 200, 2000);
  });

  it('uses a content hash as revision for a directory that is not a Git repository', async () => {
    const dir = makeConfigRepo(asRepoFiles(), { git: false });
    service = await startTestService({ CONFIG_REPO: dir });
    expect((await request(service.url, NS, { token: READ_TOKEN })).headers['x-config-revision']).toMatch(
      /^content-[0-9a-f]{12}$/,
    );
  });
});
