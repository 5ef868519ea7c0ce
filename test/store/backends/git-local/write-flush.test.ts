// What a write flushes, and in which order, seen in the system calls of the real service
// (strace): each file flushed before it is renamed into place, the folder flushed after the
// rename, each new folder flushed into its parent — so that after a power loss the journal
// is there for the repair, and nothing a ref names, nor the ref itself, is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectory, syncDirectory } from '../../../../src/store/git/files/flushed-file.ts';
import { crudRepo } from '../../../helpers/crud.ts';
import { request } from '../../../helpers/http.ts';
import { startServiceProcess } from '../../../helpers/process.ts';
import { WRITE_TOKEN } from '../../../helpers/service.ts';

/** Whether strace can trace here (it needs ptrace, which a container may not allow). */
function straceWorks(): boolean {
  try {
    execFileSync('strace', ['-o', '/dev/null', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Call {
  call: string;
  /** The path (fsync: of the file descriptor), or a rename's source. */
  path: string;
  /** A rename's target. */
  to?: string;
  /** mkdir: it created the folder. */
  created?: boolean;
  line: string;
}

/** The calls in the order they were issued (an interrupted call counts where it started). */
function parseTrace(text: string): Call[] {
  const lines = text.split('\n');
  const calls: Call[] = [];
  for (const [at, line] of lines.entries()) {
    const match = /^(\d+)\s+(fsync|rename|mkdir|openat)\((.*)$/.exec(line);
    if (!match) continue;
    const [, pid, call, args] = match as unknown as [string, string, string, string];
    const quoted = [...args.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    if (call === 'fsync') calls.push({ call, path: /^\d+<([^>]*)>/.exec(args)?.[1] ?? '', line });
    else if (call === 'rename') calls.push({ call, path: quoted[0], to: quoted[1], line });
    else if (call === 'openat') calls.push({ call, path: quoted[0], line });
    else {
      // An interrupted mkdir says how it ended on its "resumed" line.
      const end = line.includes('<unfinished')
        ? lines.slice(at + 1).find((l) => l.startsWith(`${pid} <... mkdir resumed>`))
        : line;
      calls.push({ call, path: quoted[0], created: / = 0$/.test(end ?? ''), line });
    }
  }
  return calls;
}

describe('flushing helpers', () => {
  it('makeDirectory creates nested folders; syncDirectory flushes a folder, and fails on none', async () => {
    const base = mkdtempSync(join(tmpdir(), 'flush-'));
    await makeDirectory(join(base, 'a', 'b', 'c'));
    expect(existsSync(join(base, 'a', 'b', 'c'))).toBe(true);
    await makeDirectory(join(base, 'a', 'b', 'c'));
    await expect(syncDirectory(join(base, 'a'))).resolves.toBeUndefined();
    await expect(syncDirectory(join(base, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe.skipIf(!straceWorks())('a write, traced (needs strace and ptrace)', () => {
  it('flushes each file before its rename and each folder after, the journal first, the branch last', async () => {
    const dir = crudRepo();
    const trace = join(mkdtempSync(join(tmpdir(), 'trace-')), 'calls.txt');
    const service = await startServiceProcess(
      { API_MODE: 'crud', STORE_BACKEND: 'git', CONFIG_REPO: dir, CRUD_AUTH_TOKEN: WRITE_TOKEN },
      {
        wrapper: ['strace', '-f', '-y', '-qq', '-e', 'trace=fsync,rename,mkdir,openat', '-o', trace],
      },
    );
    const res = await request(service.url, '/namespaces', {
      method: 'POST',
      token: WRITE_TOKEN,
      headers: { 'content-type': 'application/json' },
      body: '{"id":"team-s"}',
    });
    expect(res.status).toBe(201);
    await service.stop();
    const calls = parseTrace(readFileSync(trace, 'utf8')).filter((c) => c.path.startsWith(dir));
    const git = join(dir, '.git');
    const first = (test: (c: Call) => boolean, after = -1) => calls.findIndex((c, i) => i > after && test(c));
    const fsyncOf = (path: string, after = -1) => first((c) => c.call === 'fsync' && c.path === path, after);
    const renameTo = (test: (to: string) => boolean) => first((c) => c.call === 'rename' && test(c.to!));

    /**
     * The rename into `to`: its source flushed before it, the target's folder after; returns where that folder was
     * flushed.
     */
    const expectFlushedRename = (to: string): number => {
      const at = renameTo((t) => t === to);
      expect(at, `rename to ${to}`).toBeGreaterThan(-1);
      const from = calls[at].path;
      const flushed = calls.findIndex((c) => c.call === 'fsync' && c.path === from);
      expect(flushed, `fsync of ${from}`).toBeGreaterThan(-1);
      expect(flushed, `${from} flushed before its rename`).toBeLessThan(at);
      const folder = fsyncOf(dirname(to), at);
      expect(folder, `${dirname(to)} flushed after the rename to ${to}`).toBeGreaterThan(at);
      return folder;
    };

    const branchMove = renameTo((t) => t === join(git, 'refs/heads/main'));
    expect(branchMove).toBeGreaterThan(-1);

    // The objects: each flushed, renamed, its folder flushed — all before the branch names them.
    const objects = calls
      .filter((c) => c.call === 'rename' && /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(c.to!))
      .map((c) => c.to!);
    expect(objects).toHaveLength(4); // blob, folder tree, root tree, commit
    for (const object of objects) expect(expectFlushedRename(object)).toBeLessThan(branchMove);

    // The journal, on disk before the working tree is touched.
    const journal = calls.find(
      (c) => c.call === 'rename' && /\/gitops-config-api\/writes\/[^/]+\.json$/.test(c.to!),
    )!.to!;
    const journalFlushed = expectFlushedRename(journal);
    const recordMove = renameTo((t) => t === join(dir, 'namespaces/team-s.yaml'));
    expect(journalFlushed).toBeLessThan(recordMove);

    // The record file, on disk before the branch moves.
    expect(expectFlushedRename(join(dir, 'namespaces/team-s.yaml'))).toBeLessThan(branchMove);

    // The branch: the lock's content flushed, the reflogs appended, then the rename, flushed.
    const lockFlushed = first((c) => c.call === 'fsync' && c.path.endsWith('.refs%2Fheads%2Fmain'));
    expect(lockFlushed).toBeGreaterThan(-1);
    expect(lockFlushed).toBeLessThan(branchMove);
    for (const log of ['logs/refs/heads/main', 'logs/HEAD']) {
      const appended = first((c) => c.call === 'openat' && c.path === join(git, log) && c.line.includes('O_APPEND'));
      expect(appended, log).toBeGreaterThan(-1);
      expect(appended, log).toBeLessThan(branchMove);
    }
    expect(fsyncOf(join(git, 'refs/heads'), branchMove)).toBeGreaterThan(branchMove);

    // Every folder the write created is flushed into its parent.
    const created = calls.filter((c) => c.call === 'mkdir' && c.created);
    expect(created.map((c) => c.path)).toEqual(
      expect.arrayContaining([join(git, 'gitops-config-api/writes'), join(git, 'gitops-config-api/tmp')]),
    );
    for (const folder of created)
      expect(
        fsyncOf(dirname(folder.path), calls.indexOf(folder)),
        `${folder.path} flushed into its parent`,
      ).toBeGreaterThan(-1);
  }, 60_000);

  it(
    'a change set: every file flushed before its rename, each folder after its last rename, the journal before the ' +
      'first, the branch after all',
    async () => {
      const dir = crudRepo();
      const trace = join(mkdtempSync(join(tmpdir(), 'trace-')), 'calls.txt');
      const service = await startServiceProcess(
        { API_MODE: 'crud', STORE_BACKEND: 'git', CONFIG_REPO: dir, CRUD_AUTH_TOKEN: WRITE_TOKEN },
        {
          wrapper: ['strace', '-f', '-y', '-qq', '-e', 'trace=fsync,rename,mkdir,openat', '-o', trace],
        },
      );
      const writes = [
        { op: 'create', collection: 'namespaces', id: 'team-s', record: {} },
        { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { flushed: 'yes' } } },
        { op: 'patch', collection: 'clusters', id: 'c0', patch: { namespaces: [{ id: 'team-s' }] } },
      ];
      const res = await request(service.url, '/api/v2/gitops/changes', {
        method: 'POST',
        token: WRITE_TOKEN,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ writes }),
      });
      expect(res.status).toBe(201);
      await service.stop();
      const calls = parseTrace(readFileSync(trace, 'utf8')).filter((c) => c.path.startsWith(dir));
      const at = (test: (c: Call) => boolean) => calls.findIndex(test);
      const lastAt = (test: (c: Call) => boolean) => calls.findLastIndex(test);
      const branchMove = at((c) => c.call === 'rename' && c.to === join(dir, '.git/refs/heads/main'));
      const journal = at((c) => c.call === 'rename' && /\/gitops-config-api\/writes\/[^/]+\.json$/.test(c.to!));
      const files = ['namespaces/team-s.yaml', 'namespaces/team-b.yaml', 'clusters/c0.yaml'].map((f) => join(dir, f));
      const renames = files.map((file) => at((c) => c.call === 'rename' && c.to === file));
      expect(branchMove).toBeGreaterThan(-1);
      expect(journal).toBeGreaterThan(-1);
      for (const [i, file] of files.entries()) {
        const renamed = renames[i];
        expect(renamed, `rename to ${file}`).toBeGreaterThan(journal);
        const from = calls[renamed].path;
        expect(
          at((c) => c.call === 'fsync' && c.path === from),
          `${from} flushed before its rename`,
        ).toBeLessThan(renamed);
        expect(
          at((c) => c.call === 'fsync' && c.path === from),
          `${from} flushed`,
        ).toBeGreaterThan(-1);
      }
      for (const folder of ['namespaces', 'clusters'].map((f) => join(dir, f))) {
        const lastRename = lastAt((c) => c.call === 'rename' && dirname(c.to!) === folder);
        const flushed = calls.findIndex((c, i) => i > lastRename && c.call === 'fsync' && c.path === folder);
        expect(flushed, `${folder} flushed after its last rename`).toBeGreaterThan(lastRename);
        expect(flushed, `${folder} flushed before the branch moves`).toBeLessThan(branchMove);
      }
    },
    60_000,
  );
});
