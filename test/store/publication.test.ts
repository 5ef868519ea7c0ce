// Only what validates is published, on every store that can change behind the service's back
// (a local repo, a remote one, a SQLite database): each change below is refused, the last
// published bytes stay served with the same ETag and X-Config-Revision, /ready names the
// refused revision and its problems, and the fix is published.
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PreparedBackend, prepareBackend } from '../helpers/backends.ts';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { commitAll, git, type RepoFiles, writeFiles } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { sqlInOtherProcess } from '../helpers/sqlite.ts';
import { announcePush } from '../helpers/store-actions.ts';

const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';
const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** What someone commits (git) or pushes (git-remote): files written and files removed. */
interface Change {
  write?: RepoFiles;
  remove?: string[];
}

/** Makes the change where the backend keeps its data, and returns the revision it makes. */
async function commit(
  prepared: PreparedBackend,
  running: TestService,
  change: Change,
  message: string,
): Promise<string> {
  const dir = prepared.dir ?? prepared.remote!.work;
  writeFiles(dir, change.write ?? {});
  for (const path of change.remove ?? []) rmSync(join(dir, path), { recursive: true, force: true });
  const revision = commitAll(dir, message);
  if (prepared.remote) {
    git(dir, 'push', '-q', 'origin', 'HEAD:main');
    await announcePush(running);
  }
  return revision;
}

async function judged(running: TestService, revision: string): Promise<Record<string, any>> {
  await eventually(
    async () => (await request(running.url, '/ready', { token: READ_TOKEN })).json().last_load?.revision === revision,
    5000,
  );
  return (await request(running.url, '/ready', { token: READ_TOKEN })).json();
}

const files = asRepoFiles();
const c1 = files['clusters/c1.yaml'] as Record<string, any>;
const podinfo = files['platform_components/podinfo.yaml'] as Record<string, any>;
const traefik = files['platform_components/traefik.yaml'] as Record<string, any>;

/** Changes the server must refuse, each with the problem codes it is refused for. */
const REFUSED: [string, Change, string[]][] = [
  [
    'every namespace definition removed (git rm -r namespaces)',
    { remove: ['namespaces'] },
    ['dangling_reference', 'dangling_reference'],
  ],
  [
    'a typo in a component reference',
    {
      write: {
        'clusters/c1.yaml': {
          ...c1,
          platform_components: [...c1.platform_components, { id: 'podinfoo', enabled: true }],
        },
      },
    },
    ['dangling_reference'],
  ],
  [
    'a depends_on cycle',
    {
      write: {
        'platform_components/traefik.yaml': { ...traefik, depends_on: ['podinfo'] },
        'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['traefik'] },
      },
    },
    ['dependency_cycle'],
  ],
  [
    'an unknown depends_on',
    { write: { 'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['ghost'] } } },
    ['unknown_dependency'],
  ],
  [
    'patches for a component the cluster does not reference',
    { write: { 'clusters/c1.yaml': { ...c1, patches: { ...c1.patches, kyverno: { a: 'b' } } } } },
    ['stray_patch'],
  ],
];

describe.each(['git', 'git-remote'] as const)('publication on the %s backend', (backend) => {
  // One store and one service for the cases of a backend: each case ends with its fix published, every file back as
  // it was, so the next one starts from the same good content (at a revision of its own).
  let prepared: PreparedBackend;
  let service: TestService;
  beforeAll(async () => {
    prepared = await prepareBackend(backend);
    service = await startTestService(prepared.env);
  });
  afterAll(() => service?.close());

  it.each(REFUSED)(
    'refuses %s, keeps serving the last good bytes, and publishes the fix',
    async (_name, change, codes) => {
      const before = await Promise.all([NS, PC].map((path) => request(service.url, path, { token: READ_TOKEN })));
      const served = before[0].headers['x-config-revision'];

      const bad = await commit(prepared, service, change, 'a bad change');
      const ready = await judged(service, bad);
      expect(ready).toMatchObject({
        status: 'ok',
        stale: true,
        revision: served,
        last_load: { ok: false, revision: bad },
      });
      expect(ready.last_load.problems.map((p: { code: string }) => p.code).sort()).toEqual([...codes].sort());
      for (const [index, path] of [NS, PC].entries()) {
        const now = await request(service.url, path, { token: READ_TOKEN });
        expect(now.body.equals(before[index].body), path).toBe(true);
        expect(now.headers.etag).toBe(before[index].headers.etag);
        expect(now.headers['x-config-revision']).toBe(served);
      }

      // Putting every file back is the fix.
      const fix = await commit(
        prepared,
        service,
        { write: Object.fromEntries(Object.entries(files).filter(([path]) => path !== 'README.md')) },
        'the fix',
      );
      expect(await judged(service, fix)).toMatchObject({ stale: false, revision: fix, last_load: { ok: true } });
      expect((await request(service.url, NS, { token: READ_TOKEN })).headers['x-config-revision']).toBe(fix);
    },
  );
});

describe('record files in commits of a remote', () => {
  it('refuses a committed symbolic link and a blob over MAX_RECORD_BYTES, naming each', async () => {
    const prepared = await prepareBackend('git-remote');
    service = await startTestService({ ...prepared.env, MAX_RECORD_BYTES: '64kb' });
    const { work } = prepared.remote!;
    symlinkSync('team-a.yaml', join(work, 'namespaces/linked.yaml'));
    writeFileSync(join(work, 'namespaces/big.yaml'), `# ${'x'.repeat(100_000)}\nlabels: {}\n`);
    const bad = commitAll(work, 'a link and a big file');
    git(work, 'push', '-q', 'origin', 'HEAD:main');
    await announcePush(service);
    const ready = await judged(service, bad);
    expect(ready.last_load.problems).toEqual([
      expect.objectContaining({
        code: 'file_too_large',
        file: 'namespaces/big.yaml',
        message: expect.stringContaining('over MAX_RECORD_BYTES (65536)'),
      }),
      expect.objectContaining({
        code: 'not_regular_file',
        file: 'namespaces/linked.yaml',
        message: expect.stringContaining('is a symbolic link'),
      }),
    ]);
  });
});

describe('publication on the sqlite backend', () => {
  const REFUSED_ROWS: [string, string, string[]][] = [
    ['DELETE FROM namespaces', 'DELETE FROM namespaces', ['dangling_reference', 'dangling_reference']],
    [
      'a typo in a component reference',
      "UPDATE cluster_platform_components SET component_id = 'podinfoo' WHERE component_id = 'podinfo'",
      ['dangling_reference', 'stray_patch'],
    ],
    [
      'a depends_on cycle',
      `UPDATE platform_components SET depends_on = '["podinfo"]' WHERE id = 'traefik'; UPDATE platform_components ` +
        `SET depends_on = '["traefik"]' WHERE id = 'podinfo'`,
      ['dependency_cycle'],
    ],
    [
      'an unknown depends_on',
      `UPDATE platform_components SET depends_on = '["ghost"]' WHERE id = 'podinfo'`,
      ['unknown_dependency'],
    ],
  ];
  it.each(REFUSED_ROWS)('refuses %s and keeps serving the last good bytes', async (_name, sql, codes) => {
    const prepared = await prepareBackend('sqlite');
    service = await startTestService(prepared.env);
    const before = await request(service.url, NS, { token: READ_TOKEN });
    sqlInOtherProcess(prepared.dbPath!, sql);
    await eventually(
      async () => (await request(service!.url, '/ready', { token: READ_TOKEN })).json().stale === true,
      3000,
    );
    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    expect(ready).toMatchObject({ revision: '1', last_load: { ok: false } });
    expect(ready.last_load.problems.map((p: { code: string }) => p.code).sort()).toEqual([...codes].sort());
    const now = await request(service.url, NS, { token: READ_TOKEN });
    expect(now.body.equals(before.body)).toBe(true);
    expect(now.headers.etag).toBe(before.headers.etag);
    expect(now.headers['x-config-revision']).toBe('1');
  });
});
