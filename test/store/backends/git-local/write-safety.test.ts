// Crud mode shares its Git repository with people: writes take git's own locks (waiting while
// a person's git command holds them), a person committing at the same time loses nothing,
// and whatever a crash leaves half done — locks, a replaced file, an index behind HEAD, a
// damaged object — is finished or undone at the next start without touching a person's work.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CommitBuilder } from '../../../../src/store/git/commit-builder.ts';
import { readIndexFile } from '../../../../src/store/git/files/index-file-access.ts';
import { patchIndex } from '../../../../src/store/git/format/index-file.ts';
import { LockFile } from '../../../../src/store/git/files/lock-file.ts';
import { writeLooseObject } from '../../../../src/store/git/files/loose-object.ts';
import { objectId } from '../../../../src/store/git/format/object-id.ts';
import { lockRef } from '../../../../src/store/git/files/ref-file.ts';
import { replaceFile } from '../../../../src/store/backends/git-local/record-file-write.ts';
import { recordIntent, repairInterruptedWrites } from '../../../../src/store/backends/git-local/write-journal.ts';
import { git } from '../../../helpers/git-fixture.ts';
import { leaveAsStopped } from '../../../helpers/stopped-process.ts';
import { eventually } from '../../../helpers/http.ts';
import { crudRepo, gitOut, logLines, send, crudServicesClosedAfterEach } from '../../../helpers/crud.ts';

const run = promisify(execFile);
const silent = pino({ level: 'silent' });

const start = crudServicesClosedAfterEach();

/** The repo is whole and agrees with itself: fsck finds nothing, status is clean. */
function expectHealthy(dir: string): void {
  expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
  expect(gitOut(dir, 'status', '--porcelain')).toBe('');
}

/** Resolves once the service is waiting for a lock: it has made its own link file. */
async function serviceIsWaiting(dir: string): Promise<void> {
  const locks = join(dir, '.git/gitops-config-api/locks');
  await eventually(() => existsSync(locks) && readdirSync(locks).length > 0, 5000, 5);
}

describe('a lock held by a person', () => {
  for (const [name, lock] of [
    ['the index lock', '.git/index.lock'],
    ['the branch lock', '.git/refs/heads/main.lock'],
  ] as const) {
    it(`${name}: the write waits for it and succeeds`, async () => {
      const dir = crudRepo();
      const service = await start(dir);
      writeFileSync(join(dir, lock), '');
      const write = send(service, 'PATCH', '/namespaces/team-a', { labels: { waited: 'yes' } });
      await serviceIsWaiting(dir);
      if (lock.includes('refs'))
        await eventually(
          () =>
            existsSync(join(dir, '.git/index.lock')) &&
            readdirSync(join(dir, '.git/gitops-config-api/locks')).length === 2,
          5000,
          5,
        );
      rmSync(join(dir, lock));
      const res = await write;
      expect(res.status).toBe(200);
      expect(gitOut(dir, 'log', '-1', '--format=%s')).toBe('namespaces: update team-a');
      expectHealthy(dir);
    });
  }
});

describe('a person committing in the same repo while the service writes', () => {
  it(
    '4 writers x 10 REST writes and 20 commits by a person: ' + 'every commit is in HEAD, fsck and status are clean',
    async () => {
      const dir = crudRepo();
      const service = await start(dir);
      const person = async () => {
        const env = {
          ...process.env,
          GIT_AUTHOR_NAME: 'A Person',
          GIT_AUTHOR_EMAIL: 'p@example.com',
          GIT_COMMITTER_NAME: 'A Person',
          GIT_COMMITTER_EMAIL: 'p@example.com',
        };
        for (let i = 0; i < 20; i++) {
          writeFileSync(join(dir, `namespaces/person-${i}.yaml`), `id: person-${i}\nlabels: {}\nannotations: {}\n`);
          // A person whose command meets a lock tries again, as people do.
          for (let tries = 0; ; tries++) {
            try {
              await run('git', ['add', `namespaces/person-${i}.yaml`], { cwd: dir, env });
              await run('git', ['commit', '-q', '-m', `person ${i}`, '--', `namespaces/person-${i}.yaml`], {
                cwd: dir,
                env,
              });
              break;
            } catch (error) {
              const text = String((error as { stderr?: string }).stderr);
              if (!/lock|cannot lock ref|but expected/.test(text) || tries > 200) throw error;
              await new Promise((r) => setImmediate(r));
            }
          }
        }
      };
      const writer = async (w: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++)
          statuses.push((await send(service, 'POST', '/namespaces', { id: `w${w}-${i}` })).status);
        return statuses;
      };
      const [, ...written] = await Promise.all([person(), writer(0), writer(1), writer(2), writer(3)]);
      if (written.flat().some((s) => s !== 201))
        console.log(
          service
            .logText()
            .split('\n')
            .filter((l) => /"level":(40|50)/.test(l))
            .join('\n'),
        );
      expect(written.flat()).toEqual(Array(40).fill(201));
      const subjects = new Set(gitOut(dir, 'log', '--format=%s').split('\n'));
      for (let w = 0; w < 4; w++)
        for (let i = 0; i < 10; i++) expect(subjects.has(`namespaces: create w${w}-${i}`), `w${w}-${i}`).toBe(true);
      for (let i = 0; i < 20; i++) expect(subjects.has(`person ${i}`), `person ${i}`).toBe(true);
      const files = gitOut(dir, 'ls-tree', '--name-only', 'HEAD', 'namespaces/').split('\n');
      expect(files.filter((f) => /\/(w\d|person)-/.test(f))).toHaveLength(60);
      expectHealthy(dir);
    },
    90_000,
  ); // 40 writes and 20 commits, each with git's own locks and fsync: about 35 s on a busy 2-core machine
});

describe("a person's staged change", () => {
  it(
    "stays staged across the service's writes, also when " + 'the index the service last wrote is replaced by git',
    async () => {
      const dir = crudRepo();
      const service = await start(dir);
      expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { n: '1' } })).status).toBe(200);
      writeFileSync(join(dir, 'namespaces/team-b.yaml'), 'id: team-b\nlabels:\n  staged: "yes"\nannotations: {}\n');
      git(dir, 'add', 'namespaces/team-b.yaml');
      expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { n: '2' } })).status).toBe(200);
      expect((await send(service, 'PATCH', '/clusters/c1', { cluster_name: 'renamed' })).status).toBe(200);
      expect(gitOut(dir, 'diff', '--cached', '--name-only')).toBe('namespaces/team-b.yaml');
      expect(gitOut(dir, 'status', '--porcelain')).toBe('M  namespaces/team-b.yaml');
      git(dir, 'commit', '-q', '-m', 'a person commits what they staged');
      expect(gitOut(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('namespaces/team-b.yaml');
      expectHealthy(dir);
    },
  );
});

/**
 * A write cut off at a given point, done with the same steps the backend takes: a commit of
 * one file, or of two (a change set) cut off between them ('between': the first file
 * replaced, the second not yet).
 */
async function cutOffWrite(
  dir: string,
  until: 'locks' | 'file' | 'between' | 'branch',
  fileCount: 1 | 2 = until === 'between' ? 2 : 1,
) {
  const gitdir = join(dir, '.git');
  const files = [
    { path: 'namespaces/team-a.yaml', text: 'id: team-a\nlabels:\n  cut: "off"\nannotations: {}\n' },
    { path: 'rolebindings/viewers.yaml', text: 'id: viewers\nrole: view\nsubjects: []\n# cut off\n' },
  ].slice(0, fileCount);
  const parent = gitOut(dir, 'rev-parse', 'HEAD');
  const previous = files.map((f) => readFileSync(join(dir, f.path)));
  const builder = new CommitBuilder({ dir, author: { name: 'Service', email: 's@example.com' } });
  const { commit, blobs, written } = await builder.build(files, 'namespaces: update team-a', parent);
  await written;
  const index = await LockFile.take(gitdir, 'index');
  const branch = await lockRef(gitdir, 'refs/heads/main', parent);
  const cut = {
    parent,
    commit,
    previous: previous[0],
    text: files[0].text,
    path: files[0].path,
    files,
    previousAll: previous,
  };
  if (until === 'locks') {
    leaveAsStopped(gitdir);
    return cut;
  }
  const intended = [];
  for (const [i, file] of files.entries())
    intended.push({
      path: file.path,
      blob: blobs[i]!,
      previousBlob: await writeLooseObject(gitdir, 'blob', previous[i]),
    });
  await recordIntent(gitdir, { ref: 'refs/heads/main', parent, commit, files: intended });
  const replaced = until === 'between' ? files.slice(0, 1) : files;
  for (const file of replaced) await replaceFile(gitdir, join(dir, file.path), file.text);
  if (until === 'branch') {
    let patched = (await readIndexFile(gitdir))!;
    for (const [i, file] of files.entries())
      patched = patchIndex(patched, file.path, {
        oid: blobs[i]!,
        stats: await stat(join(dir, file.path), { bigint: true }),
      }).bytes;
    await index.write(patched);
    await branch.prepare(commit);
    await branch.commit({ committer: builder.author, message: 'commit: namespaces: update team-a' });
  }
  // The process stops here: its locks and journal stay, and name a process that is gone.
  leaveAsStopped(gitdir);
  return cut;
}

describe('repair at start', () => {
  it('undoes a write cut off before the branch moved: the file is put back, the locks are gone', async () => {
    const dir = crudRepo();
    const cut = await cutOffWrite(dir, 'file');
    expect(existsSync(join(dir, '.git/index.lock'))).toBe(true);
    expect(gitOut(dir, 'status', '--porcelain')).not.toBe('');
    await repairInterruptedWrites(dir, silent);
    expect(readFileSync(join(dir, cut.path))).toEqual(cut.previous);
    expect(gitOut(dir, 'rev-parse', 'HEAD')).toBe(cut.parent);
    expect(existsSync(join(dir, '.git/index.lock'))).toBe(false);
    expect(existsSync(join(dir, '.git/refs/heads/main.lock'))).toBe(false);
    expectHealthy(dir);
  });

  it(
    'undoes a change set cut off between its files: every file ' +
      'is put back, the replaced one and the one not reached',
    async () => {
      const dir = crudRepo();
      const cut = await cutOffWrite(dir, 'between');
      expect(gitOut(dir, 'status', '--porcelain').trim()).toBe('M namespaces/team-a.yaml');
      await repairInterruptedWrites(dir, silent);
      for (const [i, file] of cut.files.entries())
        expect(readFileSync(join(dir, file.path))).toEqual(cut.previousAll[i]);
      expect(gitOut(dir, 'rev-parse', 'HEAD')).toBe(cut.parent);
      expectHealthy(dir);
    },
  );

  it('finishes a change set cut off after the branch moved: every file and index entry follow HEAD', async () => {
    const dir = crudRepo();
    const cut = await cutOffWrite(dir, 'branch', 2);
    // The index.lock was left unrenamed: the index on disk is still the parent's for both files.
    expect(gitOut(dir, 'rev-parse', 'HEAD')).toBe(cut.commit);
    await repairInterruptedWrites(dir, silent);
    for (const file of cut.files) expect(readFileSync(join(dir, file.path), 'utf8')).toBe(file.text);
    expectHealthy(dir);
    expect(gitOut(dir, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual([
      'namespaces/team-a.yaml',
      'rolebindings/viewers.yaml',
    ]);
  });

  it('repairs a journal written before change sets (one file at its top level)', async () => {
    const dir = crudRepo();
    const cut = await cutOffWrite(dir, 'file');
    const journal = join(dir, '.git/gitops-config-api/writes');
    const [name] = readdirSync(journal);
    const { files, ...intent } = JSON.parse(readFileSync(join(journal, name), 'utf8'));
    writeFileSync(join(journal, name), JSON.stringify({ ...intent, ...files[0] }));
    await repairInterruptedWrites(dir, silent);
    expect(readFileSync(join(dir, cut.path))).toEqual(cut.previous);
    expectHealthy(dir);
  });

  it(
    'finishes a write cut off after the branch moved: the index follows HEAD, and a later `git commit -a` reverts ' +
      'nothing',
    async () => {
      const dir = crudRepo();
      const cut = await cutOffWrite(dir, 'branch');
      expect(gitOut(dir, 'rev-parse', 'HEAD')).toBe(cut.commit);
      await repairInterruptedWrites(dir, silent);
      expect(readFileSync(join(dir, cut.path), 'utf8')).toBe(cut.text);
      expectHealthy(dir);
      writeFileSync(join(dir, 'namespaces/team-b.yaml'), 'id: team-b\nlabels:\n  person: "edit"\nannotations: {}\n');
      git(dir, 'commit', '-q', '-am', 'a person edits team-b');
      expect(gitOut(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('namespaces/team-b.yaml');
      expect(gitOut(dir, 'show', 'HEAD:namespaces/team-a.yaml')).toBe(cut.text.trimEnd());
    },
  );

  it("never removes a person's lock, and the service starts and writes once it is gone", async () => {
    const dir = crudRepo();
    writeFileSync(join(dir, '.git/index.lock'), 'a person is staging');
    await repairInterruptedWrites(dir, silent);
    expect(readFileSync(join(dir, '.git/index.lock'), 'utf8')).toBe('a person is staging');
    rmSync(join(dir, '.git/index.lock'));
    const service = await start(dir);
    expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { after: 'lock' } })).status).toBe(200);
    expectHealthy(dir);
  });

  it('a restarted service repairs before it serves, and serves the repaired state', async () => {
    const dir = crudRepo();
    await cutOffWrite(dir, 'file');
    const service = await start(dir);
    expectHealthy(dir);
    expect((await send(service, 'GET', '/namespaces/team-a')).json().labels).toEqual({ team: 'a' });
    expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { after: 'repair' } })).status).toBe(200);
    expectHealthy(dir);
  });
});

describe('repair while running: what a process of this service that stopped since the start left', () => {
  it('its locks are removed when a write meets them, which succeeds at once and says so', async () => {
    const dir = crudRepo();
    const service = await start(dir);
    await cutOffWrite(dir, 'locks');
    const started = Date.now();
    expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { after: 'stale' } })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
    const removed = logLines(service).filter(
      (l) => l.msg === 'removed a lock file a stopped process of this service left',
    );
    expect(removed.map((l) => l.lock).sort()).toEqual([
      join(dir, '.git/index.lock'),
      join(dir, '.git/refs/heads/main.lock'),
    ]);
    expectHealthy(dir);
  });

  it('its half-done write is undone before the next write, which is applied to the repaired state', async () => {
    const dir = crudRepo();
    const service = await start(dir);
    const cut = await cutOffWrite(dir, 'file');
    expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { after: 'repair' } })).status).toBe(200);
    expect(readFileSync(join(dir, cut.path))).toEqual(cut.previous);
    expect(gitOut(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('namespaces/team-b.yaml');
    expect(logLines(service).some((l) => l.msg === 'repaired a write that a stop of the service cut off')).toBe(true);
    expectHealthy(dir);
  });
});

describe('objects', () => {
  it('replaces an empty or cut-off object file instead of reusing it', async () => {
    const dir = crudRepo();
    const gitdir = join(dir, '.git');
    const content = Buffer.from('id: team-z\nlabels: {}\nannotations: {}\n');
    const oid = objectId('blob', content);
    const file = join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
    for (const damaged of [Buffer.alloc(0), Buffer.from([0x78, 0x01, 0x4b])]) {
      (await import('node:fs')).mkdirSync(join(gitdir, 'objects', oid.slice(0, 2)), { recursive: true });
      writeFileSync(file, damaged);
      expect(await writeLooseObject(gitdir, 'blob', content)).toBe(oid);
      expect(gitOut(dir, 'cat-file', 'blob', oid)).toBe(content.toString().trimEnd());
    }
    // A whole one is kept as it is.
    const before = (await stat(file)).mtimeMs;
    await writeLooseObject(gitdir, 'blob', content);
    expect((await stat(file)).mtimeMs).toBe(before);
  });
});
