// The Git index a crud write goes through: a damaged one (its checksum does not match), one
// with unmerged entries (a person in the middle of a merge) and a split one refuse writes
// with a 503 store_error saying what to do, touching nothing, while reads go on; the
// extensions a write may keep are kept (REUC: a resolved conflict can still be recreated),
// the caches it must not keep are dropped (a stale cache tree would make a person's next
// commit undo the service's), and `git status` stays clean with the untracked cache on.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asRepoFiles } from '../../../helpers/fixture-data.ts';
import { commitAll, git, makeConfigRepo, writeFiles } from '../../../helpers/git-fixture.ts';
import { request } from '../../../helpers/http.ts';
import { READ_TOKEN } from '../../../helpers/service.ts';
import { commitCount, CRUD_DATA, type CrudService, gitOut, logLines, send, startCrud } from '../../../helpers/crud.ts';

let services: CrudService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

async function start(dir: string): Promise<CrudService> {
  const service = await startCrud('git', {}, dir);
  services.push(service);
  return service;
}

/** A config repo with a notes file besides the records: the file a person's merge conflicts on. */
function repoWithNotes(): string {
  return makeConfigRepo({ ...asRepoFiles(CRUD_DATA), 'notes.txt': 'first\n' });
}

/** Leaves `dir` in the middle of a merge whose one conflict is notes.txt (no record file is touched). */
function conflictingMerge(dir: string): void {
  git(dir, 'checkout', '-q', '-b', 'other');
  writeFiles(dir, { 'notes.txt': 'theirs\n' });
  commitAll(dir, 'notes on other');
  git(dir, 'checkout', '-q', 'main');
  writeFiles(dir, { 'notes.txt': 'ours\n' });
  commitAll(dir, 'notes on main');
  const merge = spawnSync('git', ['merge', '-q', 'other'], { cwd: dir, encoding: 'utf8' });
  expect(merge.status).not.toBe(0);
  expect(gitOut(dir, 'ls-files', '--unmerged')).toMatch(/ 1\tnotes\.txt\n.* 2\tnotes\.txt\n.* 3\tnotes\.txt$/);
}

/** Everything a refused write must leave as it was. */
function untouched(dir: string) {
  return {
    head: gitOut(dir, 'rev-parse', 'HEAD'),
    commits: commitCount(dir),
    index: readFileSync(join(dir, '.git', 'index')).toString('hex'),
    file: readFileSync(join(dir, 'namespaces', 'team-b.yaml'), 'utf8'),
    git: readdirSync(join(dir, '.git'))
      .filter((name) => name !== 'gitops-config-api')
      .sort(),
  };
}

async function expectReadsServed(service: CrudService): Promise<void> {
  expect(
    (await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', { token: READ_TOKEN })).status,
  ).toBe(200);
  expect((await send(service, 'GET', '/namespaces/team-b')).status).toBe(200);
}

describe('an index a write must not go through', () => {
  it(
    'a damaged index (one byte changed): 503 store_error, nothing stored, reads served; at start too; writes again ' +
      'once rebuilt',
    async () => {
      const dir = repoWithNotes();
      const service = await start(dir);
      const index = join(dir, '.git', 'index');
      const bytes = readFileSync(index);
      bytes[12 + 45] ^= 0x01; // inside the first entry's object id
      writeFileSync(index, bytes);
      const before = untouched(dir);

      const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } });
      expect(res.status).toBe(503);
      expect(res.json().error).toBe('store_error');
      expect(res.json().message).toMatch(
        /the Git index is damaged \(its checksum does not match its content.*git reset.*nothing was stored/,
      );
      expect(untouched(dir)).toEqual(before);
      await expectReadsServed(service);

      // A start on the damaged index serves, says why writes wait, and refuses them the same way.
      await service.close();
      services = [];
      const again = await start(dir);
      expect(
        logLines(again).some(
          (l) =>
            l.level === 40 && /writes are refused until this is resolved: the Git index is damaged/.test(String(l.msg)),
        ),
      ).toBe(true);
      await expectReadsServed(again);
      expect((await send(again, 'POST', '/namespaces', { id: 'team-c' })).status).toBe(503);
      expect(untouched(dir)).toEqual(before);

      execFileSync('rm', [index]);
      git(dir, 'reset', '-q');
      expect((await send(again, 'POST', '/namespaces', { id: 'team-c' })).status).toBe(201);
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    },
  );

  it(
    'a merge in conflict: 503 saying so, the conflict stages ' +
      'kept; reads served; writes again after git merge --abort',
    async () => {
      const dir = repoWithNotes();
      const service = await start(dir);
      conflictingMerge(dir);
      const before = { ...untouched(dir), unmerged: gitOut(dir, 'ls-files', '--unmerged') };

      const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } });
      expect(res.status).toBe(503);
      expect(res.json().error).toBe('store_error');
      expect(res.json().message).toMatch(
        /the Git index has unmerged entries \(a merge in progress\? "notes\.txt" is in conflict\).*git merge --abort/,
      );
      expect({ ...untouched(dir), unmerged: gitOut(dir, 'ls-files', '--unmerged') }).toEqual(before);
      await expectReadsServed(service);

      git(dir, 'merge', '--abort');
      expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } })).status).toBe(200);
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
      expect(gitOut(dir, 'log', '-1', '--format=%s')).toBe('namespaces: update team-b');
    },
  );

  it(
    'a split index (git update-index --split-index): refused at start and, made while running, refused without ' +
      'touching it or its shared index',
    async () => {
      const dir = repoWithNotes();
      git(dir, 'update-index', '--split-index');
      await expect(startCrud('git', {}, dir)).rejects.toThrow(
        /the Git index is split \(core\.splitIndex\).*--no-split-index/,
      );
      git(dir, 'update-index', '--no-split-index');
      const service = await start(dir);
      git(dir, 'update-index', '--split-index');
      const shared = () =>
        readdirSync(join(dir, '.git'))
          .filter((name) => name.startsWith('sharedindex.'))
          .map((name) => [name, readFileSync(join(dir, '.git', name)).toString('hex')]);
      const before = { ...untouched(dir), shared: shared() };
      expect(before.shared).toHaveLength(1);

      const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } });
      expect(res.status).toBe(503);
      expect(res.json().message).toMatch(/the Git index is split/);
      expect({ ...untouched(dir), shared: shared() }).toEqual(before);
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
      await expectReadsServed(service);
    },
  );

  it(
    'a sparse index (index.sparse): refused at start with the command that keeps the sparse checkout but not the ' +
      'sparse index',
    async () => {
      const dir = makeConfigRepo({ ...asRepoFiles(CRUD_DATA), 'docs/guide.md': 'how to\n' });
      git(
        dir,
        'sparse-checkout',
        'set',
        '--cone',
        '--sparse-index',
        'clusters',
        'namespaces',
        'platform_components',
        'rolebindings',
      );
      await expect(startCrud('git', {}, dir)).rejects.toThrow(
        /the Git index is sparse \(index\.sparse\).*git sparse-checkout init --no-sparse-index/,
      );
      git(dir, 'sparse-checkout', 'init', '--cone', '--no-sparse-index');
      const service = await start(dir);
      expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } })).status).toBe(200);
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    },
  );
});

describe('the extensions of an index a write goes through', () => {
  it(
    'keeps the resolve-undo record of a resolved conflict, ' + 'and a merge finished afterwards holds the write',
    async () => {
      const dir = repoWithNotes();
      const service = await start(dir);
      conflictingMerge(dir);
      git(dir, 'checkout', '--theirs', 'notes.txt');
      git(dir, 'add', 'notes.txt');
      const resolveUndo = gitOut(dir, 'ls-files', '--resolve-undo');
      expect(resolveUndo).toContain('notes.txt');

      expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } })).status).toBe(200);
      expect(gitOut(dir, 'ls-files', '--resolve-undo')).toBe(resolveUndo);
      expect(gitOut(dir, 'status', '--porcelain')).toBe('M  notes.txt');

      git(dir, 'commit', '-q', '--no-edit');
      expect(gitOut(dir, 'log', '-1', '--format=%P').split(' ')).toHaveLength(2);
      expect(gitOut(dir, 'show', 'HEAD:namespaces/team-b.yaml')).toMatch(/tier: "?gold/);
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    },
  );

  it(
    "with the cache tree and the untracked cache on: writes succeed, git status stays clean, and a person's next " +
      'commit keeps them',
    async () => {
      const dir = repoWithNotes();
      git(dir, 'config', 'core.untrackedCache', 'true');
      git(dir, 'update-index', '--untracked-cache');
      git(dir, 'read-tree', 'HEAD'); // primes the cache tree
      gitOut(dir, 'status', '--porcelain', '--untracked-files=all'); // fills the untracked cache
      const tail = (file: Buffer) => file.toString('latin1', file.length - 2048);
      expect(tail(readFileSync(join(dir, '.git', 'index')))).toMatch(/TREE[^]*UNTR|UNTR[^]*TREE/);
      const service = await start(dir);

      expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } })).status).toBe(200);
      expect(gitOut(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      expect((await send(service, 'POST', '/namespaces', { id: 'team-c' })).status).toBe(201);
      expect(gitOut(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      expect((await send(service, 'DELETE', '/rolebindings/viewers')).status).toBe(204);
      expect(gitOut(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');

      // A person stages one file and commits: the commit's tree must hold the service's writes
      // (a cache tree kept as it was would give back the namespaces folder of before).
      writeFiles(dir, { 'notes.txt': 'a person was here\n' });
      git(dir, 'add', 'notes.txt');
      git(dir, 'commit', '-q', '-m', 'a person edits the notes');
      expect(gitOut(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('notes.txt');
      expect(gitOut(dir, 'show', 'HEAD:namespaces/team-b.yaml')).toMatch(/tier: "?gold/);
      expect(gitOut(dir, 'ls-tree', '--name-only', 'HEAD', 'namespaces/')).toContain('namespaces/team-c.yaml');
      expect(gitOut(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      expect(gitOut(dir, 'fsck', '--no-progress')).toBe('');
    },
  );

  it('accepts an index whose checksum git was told to skip (all zeros), as git does', async () => {
    const dir = repoWithNotes();
    const index = join(dir, '.git', 'index');
    const bytes = readFileSync(index);
    bytes.fill(0, bytes.length - 20);
    writeFileSync(index, bytes);
    const service = await start(dir);
    expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } })).status).toBe(200);
    expect(gitOut(dir, 'status', '--porcelain')).toBe('');
  });
});
