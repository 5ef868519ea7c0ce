// Crud mode on the git backend: every successful write is exactly one commit of one file,
// refused writes leave no commit, the working tree and the index stay clean, the files read
// back as what GET answers, concurrent writes serialize, a restart serves what was written,
// a write that meets a lock held by git leaves no trace, and commits or edits made by others
// in the same directory are picked up.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareCrudRepo } from '../../../../scripts/start-crud.ts';
import { parseRecordFile } from '../../../../src/domain/repo-layout/record-file-parse.ts';
import { asRepoFiles } from '../../../helpers/fixture-data.ts';
import { commitAll, git, makeConfigRepo, tempDir, writeFiles } from '../../../helpers/git-fixture.ts';
import { eventually, request } from '../../../helpers/http.ts';
import { expectMatchesOpenApi } from '../../../helpers/openapi.ts';
import { READ_TOKEN, startTestService } from '../../../helpers/service.ts';
import {
  auditLines,
  commitCount,
  CRUD_DATA,
  crudRepo,
  type CrudService,
  gitOut,
  logLines,
  send,
  startCrud,
} from '../../../helpers/crud.ts';

let services: CrudService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

async function start(env: Record<string, string> = {}, dir?: string): Promise<CrudService> {
  const service = await startCrud('git', env, dir);
  services.push(service);
  return service;
}

/** Every record file of the repo, parsed; fails the test on a file that does not parse. */
function recordFiles(dir: string): Map<string, unknown> {
  const records = new Map<string, unknown>();
  for (const collection of ['clusters', 'platform_components', 'namespaces', 'rolebindings']) {
    if (!existsSync(join(dir, collection))) continue;
    for (const name of readdirSync(join(dir, collection))) {
      const path = `${collection}/${name}`;
      const parsed = parseRecordFile(path, readFileSync(join(dir, path), 'utf8'));
      expect(parsed?.problems, path).toEqual([]);
      records.set(`${collection}/${(parsed!.record as { id: string }).id}`, parsed!.record);
    }
  }
  return records;
}

/** Everything a failed write must leave as it was. */
async function repoState(service: CrudService, paths: string[]) {
  const dir = service.dir!;
  return {
    head: gitOut(dir, 'rev-parse', 'HEAD'),
    commits: commitCount(dir),
    status: gitOut(dir, 'status', '--porcelain'),
    index: gitOut(dir, 'ls-files', '--stage'),
    files: paths.map((p) => (existsSync(join(dir, p)) ? readFileSync(join(dir, p), 'utf8') : null)),
    served: await Promise.all(
      ['/clusters/c1', '/namespaces/team-b', '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components'].map(
        async (path) => {
          const res = await request(service.url, path, { token: READ_TOKEN });
          return [res.status, res.headers['x-config-revision'], res.text];
        },
      ),
    ),
  };
}

/** The log lines of published revisions (loads, not writes). */
function publications(service: CrudService): Record<string, unknown>[] {
  return logLines(service).filter((l) => l.msg === 'published a new revision');
}

describe('crud mode on the git backend', () => {
  it(
    'makes exactly one commit per successful write, with ' + 'its message and author, and none for refused writes',
    async () => {
      const service = await start({ GIT_AUTHOR_NAME: 'Config Bot', GIT_AUTHOR_EMAIL: 'bot@example.com' });
      const dir = service.dir!;
      const before = commitCount(dir);
      const viewers = await send(service, 'GET', '/rolebindings/viewers');

      const writes: [string, string, unknown, string][] = [
        ['POST', '/namespaces', { id: 'team-c', labels: { team: 'c' } }, 'namespaces: create team-c'],
        ['PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '5' } } }, 'clusters: update c1'],
        [
          'PUT',
          '/rolebindings/viewers',
          { role: 'view', subjects: [{ kind: 'Group', name: 'all', apiGroup: 'rbac.authorization.k8s.io' }] },
          'rolebindings: update viewers',
        ],
        [
          'POST',
          '/platform_components',
          { id: 'kyverno', component_path: 'kyverno', component_version: '3', oci_url: 'oci://x', oci_tag: '3' },
          'platform_components: create kyverno',
        ],
        ['DELETE', '/namespaces/team-c', undefined, 'namespaces: delete team-c'],
        ['DELETE', '/clusters/c0', undefined, 'clusters: delete c0'],
      ];
      let last = '';
      for (const [method, path, body] of writes) {
        const res = await send(service, method, path, body);
        expect(res.status, `${method} ${path}`).toBeLessThan(300);
        last = res.headers['x-config-revision'] as string;
      }
      // Refused writes, and a write that changes nothing.
      const refused: [string, string, unknown, Record<string, string>?][] = [
        ['PATCH', '/clusters/c1', { enviroment: 'dev' }],
        ['POST', '/namespaces', { id: 'team-a' }],
        ['DELETE', '/namespaces/team-a', undefined],
        ['PUT', '/rolebindings/viewers', { role: 'edit', subjects: [] }, { 'if-match': viewers.headers.etag! }],
        ['PATCH', '/clusters/nope', {}],
        ['PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '5' } } }],
      ];
      for (const [method, path, body, headers] of refused) {
        const res = await send(service, method, path, body, { headers });
        expect([200, 400, 404, 409, 412], `${method} ${path}`).toContain(res.status);
      }
      expect((await send(service, 'PATCH', '/clusters/c1', {}, { token: READ_TOKEN })).status).toBe(401);

      expect(commitCount(dir)).toBe(before + writes.length);
      const log = gitOut(dir, 'log', `-${writes.length}`, '--format=%H%x09%an <%ae>%x09%cn <%ce>%x09%s')
        .split('\n')
        .reverse();
      expect(log.map((line) => line.split('\t')[3])).toEqual(writes.map((w) => w[3]));
      for (const line of log) {
        const [sha, author, committer] = line.split('\t');
        expect(author).toBe('Config Bot <bot@example.com>');
        expect(committer).toBe('Config Bot <bot@example.com>');
        // One commit, one file.
        expect(gitOut(dir, 'show', '--name-only', '--format=', sha).split('\n')).toHaveLength(1);
      }
      expect(gitOut(dir, 'log', '-1', '--format=%B', log[1].split('\t')[0])).toBe(
        'clusters: update c1\n\nChanged fields: patches',
      );
      expect(gitOut(dir, 'log', '-1', '--format=%b', log[0].split('\t')[0])).toBe(
        'Changed fields: id, labels, annotations',
      );
      expect(last).toBe(gitOut(dir, 'rev-parse', 'HEAD'));

      // Clean working tree and index, sound repository.
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
      expect(gitOut(dir, 'diff', '--cached', '--name-only')).toBe('');
      gitOut(dir, 'fsck', '--no-dangling');
      expect(existsSync(join(dir, 'namespaces/team-c.yaml'))).toBe(false);
      expect(existsSync(join(dir, 'clusters/c0.yaml'))).toBe(false);

      // Every file parses and is what GET answers; the id is kept in the file.
      const files = recordFiles(dir);
      for (const [key, record] of files) {
        const res = await send(service, 'GET', `/${key}`);
        expect(res.status, key).toBe(200);
        expect(res.json(), key).toEqual(record);
        const [collection, id] = key.split('/');
        expect(readFileSync(join(dir, `${collection}/${id}.yaml`), 'utf8')).toMatch(new RegExp(`^id: ${id}$`, 'm'));
      }
      for (const collection of ['clusters', 'platform_components', 'namespaces', 'rolebindings']) {
        const listed = (await send(service, 'GET', `/${collection}`))
          .json()
          .map((r: { id: string }) => `${collection}/${r.id}`);
        expect(listed.sort()).toEqual([...files.keys()].filter((k) => k.startsWith(`${collection}/`)).sort());
      }
      expect(auditLines(service)).toHaveLength(writes.length + 1); // + the unchanged write, logged as such
      expect(auditLines(service).at(-1)).toMatchObject({ unchanged: true, changed_fields: [] });
    },
  );

  it('commits 40 concurrent merge patches to one cluster: all succeed, none lost, 40 commits', async () => {
    const service = await start();
    const dir = service.dir!;
    const before = commitCount(dir);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send(
          service,
          'PATCH',
          '/clusters/c1',
          { patches: { podinfo: { [`key.${i}`]: `value-${i}` } } },
          { headers: { 'content-type': 'application/merge-patch+json' } },
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
    expect(commitCount(dir)).toBe(before + 40);
    const patches = (await send(service, 'GET', '/clusters/c1')).json().patches.podinfo;
    expect(patches).toMatchObject({ replicaCount: '3', 'ui.color': 'blue' });
    for (let i = 0; i < 40; i++) expect(patches[`key.${i}`]).toBe(`value-${i}`);
    expect(recordFiles(dir).get('clusters/c1')).toEqual((await send(service, 'GET', '/clusters/c1')).json());
    expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    expect(new Set(results.map((r) => r.headers['x-config-revision'])).size).toBe(40);
  });

  it('serves the written state after a restart on the same repo', async () => {
    const first = await start();
    const dir = first.dir!;
    await send(first, 'POST', '/namespaces', { id: 'team-r', labels: { restarted: 'yes' } });
    const written = await send(first, 'PATCH', '/clusters/c1', { namespaces: [{ id: 'team-a' }, { id: 'team-r' }] });
    await first.close();
    services = [];

    const second = await start({}, dir);
    const read = await request(second.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', {
      token: READ_TOKEN,
    });
    expect(read.headers['x-config-revision']).toBe(written.headers['x-config-revision']);
    expect(read.json().inputs.map((i: { id: string }) => i.id)).toEqual(['team-a', 'team-r']);
    expect((await send(second, 'GET', '/clusters/c1')).text).toBe(written.text);
  });

  // A lock file of git's held by someone else for longer than a write waits (GIT_LOCK_TIMEOUT):
  // the write fails before it touches anything, saying which lock and what to do.
  describe.each([
    ['index', '.git/index.lock'],
    ['branch', '.git/refs/heads/main.lock'],
  ] as const)('a held %s lock', (_lock, lockFile) => {
    const cases: [string, string, string, unknown, string][] = [
      ['an update', 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '9' } } }, 'clusters/c1.yaml'],
      ['a create', 'POST', '/namespaces', { id: 'team-z' }, 'namespaces/team-z.yaml'],
      ['a delete', 'DELETE', '/namespaces/team-b', undefined, 'namespaces/team-b.yaml'],
    ];
    it.each(cases)(
      'leaves no trace of %s: files, index, HEAD and the served state are as they were',
      async (_name, method, path, body, file) => {
        const service = await start({ GIT_LOCK_TIMEOUT: '200ms' });
        const before = await repoState(service, [file]);
        writeFileSync(join(service.dir!, lockFile), '');
        const res = await send(service, method, path, body);
        rmSync(join(service.dir!, lockFile));
        expect(res.status).toBe(503);
        expect(res.json()).toMatchObject({ error: 'store_error' });
        expect(res.json().message).toContain('nothing was stored');
        expect(res.json().message).toContain(`${lockFile} has been held by another git command`);
        await expectMatchesOpenApi(
          method,
          method === 'POST' ? '/namespaces' : path.replace(/[^/]+$/, '{id}'),
          503,
          res.json(),
        );
        expect(await repoState(service, [file])).toEqual(before);
        expect(auditLines(service)).toHaveLength(0);

        // The store keeps working once the lock is gone.
        const retry = await send(service, method, path, body);
        expect(retry.status).toBeLessThan(300);
        expect(commitCount(service.dir!)).toBe(before.commits + 1);
        expect(gitOut(service.dir!, 'status', '--porcelain')).toBe('');
      },
    );
  });

  it('picks up commits made by someone else, also when a write follows at once', async () => {
    const service = await start();
    const dir = service.dir!;
    writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { by: 'someone-else' } } });
    const external = commitAll(dir, 'label team-b by hand');
    await eventually(
      async () => (await send(service, 'GET', '/namespaces/team-b')).json().labels.by === 'someone-else',
      3000,
    );
    expect((await send(service, 'GET', '/namespaces/team-b')).headers['x-config-revision']).toBe(external);

    // Another commit, and a REST write right away (before the watcher has reloaded).
    writeFiles(dir, { 'namespaces/team-a.yaml': { labels: { by: 'someone-else-too' } } });
    const second = commitAll(dir, 'label team-a by hand');
    const write = await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '6' } } });
    expect(write.status).toBe(200);
    expect(gitOut(dir, 'rev-parse', 'HEAD~1')).toBe(second);
    expect(write.headers['x-config-revision']).toBe(gitOut(dir, 'rev-parse', 'HEAD'));
    expect((await send(service, 'GET', '/namespaces/team-a')).json().labels).toEqual({ by: 'someone-else-too' });
    expect(gitOut(dir, 'status', '--porcelain')).toBe('');
  });

  it(
    'commits only its own file when others have uncommitted ' +
      'edits, and marks the revision dirty like the watcher does',
    async () => {
      const service = await start();
      const dir = service.dir!;
      writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { draft: 'yes' } } });
      await eventually(
        async () =>
          /\+dirty\./.test((await send(service, 'GET', '/namespaces/team-b')).headers['x-config-revision'] as string),
        3000,
      );
      const write = await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '7' } } });
      const head = gitOut(dir, 'rev-parse', 'HEAD');
      expect(write.headers['x-config-revision']).toMatch(new RegExp(`^${head}\\+dirty\\.[0-9a-f]{12}$`));
      expect(gitOut(dir, 'show', '--name-only', '--format=', head)).toBe('clusters/c1.yaml');
      expect(gitOut(dir, 'status', '--porcelain')).toBe('M namespaces/team-b.yaml');
      // The watcher's own look at the write agrees: nothing new is published. A later edit is
      // watched after it, so once that edit is served the watcher has seen the write too.
      const publishedBefore = publications(service).length;
      writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { draft: 'again' } } });
      await eventually(
        async () => (await send(service, 'GET', '/namespaces/team-b')).json().labels.draft === 'again',
        3000,
      );
      expect(
        publications(service)
          .slice(publishedBefore)
          .map((l) => l.reason),
      ).toEqual(['files changed']);
    },
  );

  it("publishes each write once: the watcher's look at it finds nothing new", async () => {
    const service = await start();
    for (let i = 0; i < 3; i++)
      await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: String(20 + i) } } });
    // An edit after the writes: once it is served, the watcher has seen the writes' changes too.
    writeFiles(service.dir!, { 'namespaces/team-b.yaml': { labels: { edited: 'by-hand' } } });
    await eventually(
      async () => (await send(service, 'GET', '/namespaces/team-b')).json().labels.edited === 'by-hand',
      3000,
    );
    expect(publications(service).map((l) => l.reason)).toEqual(['start', 'files changed']);
    expect(logLines(service).filter((l) => l.msg === 'published a write')).toHaveLength(3);
  });

  it('refuses writes (503) while the repo has a broken file, and commits nothing', async () => {
    const service = await start();
    const dir = service.dir!;
    const before = commitCount(dir);
    writeFileSync(join(dir, 'namespaces/team-b.yaml'), 'labels: [oops\n');
    await eventually(
      async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().last_load?.ok === false,
      3000,
    );
    const res = await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '8' } } });
    expect(res.status).toBe(503);
    expect(res.json().error).toBe('store_error');
    expect(res.json().message).toContain('refused');
    expect(res.json().details).toEqual([
      { path: 'namespaces/team-b.yaml', message: expect.stringContaining('YAML syntax error') },
    ]);
    await expectMatchesOpenApi('patch', '/clusters/{id}', 503, res.json());
    expect(commitCount(dir)).toBe(before);
  });

  it(
    'writes a record back to its .yml file, changing only ' +
      'what changed, and gives a new file the folder schema hint',
    async () => {
      const files = asRepoFiles(CRUD_DATA);
      const hint = '# yaml-language-server: $schema=../schemas/namespace.schema.json\n';
      delete files['clusters/c0.yaml'];
      const dir = makeConfigRepo({
        ...files,
        'clusters/c0.yml': CRUD_DATA.clusters[1],
        'namespaces/team-a.yaml': `${hint}# Team A: owned by the payments group.\nid: team-a\nlabels:\n  team: a\n`,
      });
      const service = await start({}, dir);

      expect((await send(service, 'PATCH', '/clusters/c0', { cluster_name: 'renamed' })).status).toBe(200);
      expect(existsSync(join(dir, 'clusters/c0.yaml'))).toBe(false);
      expect(readFileSync(join(dir, 'clusters/c0.yml'), 'utf8')).toContain('cluster_name: renamed\n');

      expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { tier: 'gold' } })).status).toBe(200);
      expect(readFileSync(join(dir, 'namespaces/team-a.yaml'), 'utf8')).toBe(
        `${hint}# Team A: owned by the payments group.\nid: team-a\nlabels:\n  team: a\n  tier: "gold"\n`,
      );
      expect((await send(service, 'POST', '/namespaces', { id: 'team-n' })).status).toBe(201);
      expect(readFileSync(join(dir, 'namespaces/team-n.yaml'), 'utf8')).toBe(
        `${hint}id: team-n\nlabels: {}\nannotations: {}\n`,
      );
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    },
  );

  it(
    'a PATCH of one field keeps every comment, quote and ' + 'blank line a person wrote elsewhere, byte for byte',
    async () => {
      const files = asRepoFiles(CRUD_DATA);
      const written = [
        '# c1: the payments cluster. Ask #platform before changing it.',
        'id: c1',
        "cluster_name: 'cluster-one'   # the name in the cloud console",
        'cluster_dns: c1.k8s.example.com',
        'environment: prod',
        '',
        'platform_components:',
        '  # cert-manager first: traefik needs its CRDs',
        '  - id: cert-manager',
        '    enabled: true',
        '  - {id: traefik, enabled: true}',
        '  - id: podinfo',
        '    enabled: true',
        '    oci_tag: "6.7.2-hotfix"  # until 6.7.3 ships',
        'namespaces: [{id: team-a}]',
        'rolebindings:',
        '- id: admins',
        'patches:',
        '  podinfo:',
        "    replicaCount: '3'   # three for the sale",
        '    ui.color: blue',
        '',
      ].join('\n');
      const dir = makeConfigRepo({ ...files, 'clusters/c1.yaml': written });
      const service = await start({}, dir);
      expect(
        (await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { 'ui.color': 'green' } } })).status,
      ).toBe(200);
      expect(readFileSync(join(dir, 'clusters/c1.yaml'), 'utf8')).toBe(
        written.replace('    ui.color: blue', '    ui.color: green'),
      );
      expect(gitOut(dir, 'show', '--stat', '--format=', 'HEAD')).toContain('1 insertion(+), 1 deletion(-)');
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    },
  );

  it('refuses an index form it cannot update (version 4): at start, and later without leaving a trace', async () => {
    const dir = crudRepo();
    git(dir, 'update-index', '--index-version', '4');
    await expect(startCrud('git', {}, dir)).rejects.toThrow(
      /index is of version 4.*git update-index --index-version 2/,
    );
    git(dir, 'update-index', '--index-version', '2');
    const service = await start({}, dir);
    expect((await send(service, 'POST', '/namespaces', { id: 'team-v2' })).status).toBe(201);
    git(dir, 'update-index', '--index-version', '4');
    const before = await repoState(service, ['namespaces/team-b.yaml']);
    const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { v: '4' } });
    expect(res.status).toBe(503);
    expect(res.json().message).toContain('git update-index --index-version 2');
    expect(await repoState(service, ['namespaces/team-b.yaml'])).toEqual(before);
  });

  it('refuses to start crud mode on a directory that is not a Git repository, saying how to fix it', async () => {
    const plain = makeConfigRepo(asRepoFiles(CRUD_DATA), { git: false });
    await expect(startCrud('git', {}, plain)).rejects.toThrow(/is not a Git repository.*git init.*npm run start:crud/s);
    const empty = tempDir('config-repo-');
    git(empty, 'init', '-q', '-b', 'main');
    await expect(startCrud('git', {}, empty)).rejects.toThrow(/has no commit yet/);
    // Read-only mode still serves a plain directory.
    const readOnly = await startTestService({ CONFIG_REPO: plain });
    try {
      expect((await request(readOnly.url, '/ready')).status).toBe(200);
    } finally {
      await readOnly.close();
    }
  });
});

describe('npm run start:crud', () => {
  function treeHash(dir: string): string {
    const hash = createHash('sha256');
    const walk = (d: string) => {
      for (const name of readdirSync(d).sort()) {
        const full = join(d, name);
        if (statSync(full).isDirectory()) walk(full);
        else hash.update(`${relative(dir, full)}\0`).update(readFileSync(full));
      }
    };
    walk(dir);
    return hash.digest('hex');
  }

  it('serves a scratch Git copy of config-repo-example, made once; the example is never written', async () => {
    const example = join(import.meta.dirname, '../../../..', 'config-repo-example');
    const exampleBefore = treeHash(example);
    const target = join(tempDir('start-crud-'), 'crud-config-repo');
    expect(await prepareCrudRepo(example, target)).toBe(true);
    expect(gitOut(target, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(gitOut(target, 'status', '--porcelain')).toBe('');
    expect(gitOut(target, 'ls-files').split('\n').sort()).toEqual(
      gitOut(target, 'ls-files', '--others', '--cached').split('\n').sort(),
    );

    const service = await start({}, target);
    expect(
      (await send(service, 'PATCH', '/clusters/dev-eu-1', { patches: { podinfo: { replicaCount: '4' } } })).status,
    ).toBe(200);
    expect(gitOut(target, 'rev-list', '--count', 'HEAD')).toBe('2');
    expect(await prepareCrudRepo(example, target)).toBe(false); // kept, not copied again
    expect(gitOut(target, 'rev-list', '--count', 'HEAD')).toBe('2');
    expect(treeHash(example)).toBe(exampleBefore);
  });
});
