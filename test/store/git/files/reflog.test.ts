// Every move of a branch the service makes is in the branch's reflog, and in HEAD's when HEAD
// points at the branch, in git's format: `git reflog` lists the service's commits beside a
// person's. core.logAllRefUpdates is honoured as git honours it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crudRepo, gitOut, send, crudServicesClosedAfterEach } from '../../../helpers/crud.ts';
import { git, writeFiles } from '../../../helpers/git-fixture.ts';
import { eventually } from '../../../helpers/http.ts';
import { announcePush } from '../../../helpers/store-actions.ts';

const start = crudServicesClosedAfterEach();

/** A reflog line: "<old> <new> <name> <<email>> <seconds> <zone>\t<message>". */
const LINE = /^([0-9a-f]{40}) ([0-9a-f]{40}) ([^<\n]+ <[^>\n]*>) (\d+) ([+-]\d{4})\t(.*)$/;

function reflogLines(gitdir: string, ref: string): string[] {
  return readFileSync(join(gitdir, 'logs', ref), 'utf8')
    .trimEnd()
    .split('\n');
}

describe('the local Git backend', () => {
  it("logs every commit in the branch's reflog and HEAD's, as `git reflog` shows them", async () => {
    const dir = crudRepo();
    const before = gitOut(dir, 'rev-parse', 'HEAD');
    const service = await start(dir);
    expect((await send(service, 'POST', '/namespaces', { id: 'team-r' })).status).toBe(201);
    expect((await send(service, 'PATCH', '/namespaces/team-r', { labels: { n: '1' } })).status).toBe(200);
    expect((await send(service, 'DELETE', '/namespaces/team-r')).status).toBe(204);

    const subjects = ['namespaces: delete team-r', 'namespaces: update team-r', 'namespaces: create team-r'];
    const commits = gitOut(dir, 'log', '--format=%H', '-3').split('\n');
    for (const ref of ['HEAD', 'main']) {
      const shown = gitOut(dir, 'reflog', 'show', '--format=%H %gs', ref).split('\n');
      expect(shown.slice(0, 3), ref).toEqual(commits.map((c, i) => `${c} commit: ${subjects[i]}`));
      // The first line is git's own, for the commit the repository was made with.
      expect(shown[3], ref).toBe(`${before} commit (initial): initial config`);
    }
    expect(gitOut(dir, 'reflog').split('\n')[0]).toMatch(/^[0-9a-f]+ HEAD@\{0\}: commit: namespaces: delete team-r$/);

    // The lines themselves: each move starts where the one before ended, by the service's committer.
    for (const ref of ['HEAD', 'refs/heads/main']) {
      const lines = reflogLines(join(dir, '.git'), ref)
        .slice(-3)
        .map((l) => LINE.exec(l));
      expect(lines.every(Boolean), ref).toBe(true);
      expect(lines.map((m) => m![1])).toEqual([before, ...commits.slice(1).reverse()]);
      expect(lines.map((m) => m![2])).toEqual([...commits].reverse());
      for (const m of lines) expect(m![3]).toBe(gitOut(dir, 'log', '-1', '--format=%cn <%ce>', m![2]));
      expect(Math.abs(Number(lines[2]![4]) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
  });

  it("in a linked worktree: the branch's log in the shared Git directory, HEAD's in the worktree's own", async () => {
    const main = crudRepo();
    const worktree = `${main}-tree`;
    git(main, 'worktree', 'add', '-q', '-b', 'edits', worktree);
    const service = await start(worktree);
    expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { n: 'w' } })).status).toBe(200);
    const commit = gitOut(worktree, 'rev-parse', 'HEAD');
    expect(gitOut(worktree, 'reflog', 'show', '--format=%H %gs', '-1', 'HEAD')).toBe(
      `${commit} commit: namespaces: update team-a`,
    );
    expect(gitOut(worktree, 'reflog', 'show', '--format=%H %gs', '-1', 'edits')).toBe(
      `${commit} commit: namespaces: update team-a`,
    );
    // The main working tree's HEAD did not move, and its log did not hear of the write.
    expect(gitOut(main, 'reflog', 'show', '--format=%H', '-1', 'HEAD')).not.toBe(commit);
    expect(readFileSync(join(main, '.git/logs/HEAD'), 'utf8')).not.toContain(commit);
  });

  it('with core.logAllRefUpdates false: appends to a log that exists, creates none', async () => {
    const dir = crudRepo();
    git(dir, 'config', 'core.logAllRefUpdates', 'false');
    rmSync(join(dir, '.git/logs/HEAD'));
    const service = await start(dir);
    expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { n: '1' } })).status).toBe(200);
    expect(existsSync(join(dir, '.git/logs/HEAD'))).toBe(false);
    expect(reflogLines(join(dir, '.git'), 'refs/heads/main').at(-1)).toMatch(/\tcommit: namespaces: update team-a$/);

    rmSync(join(dir, '.git/logs'), { recursive: true });
    expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { n: '2' } })).status).toBe(200);
    expect(existsSync(join(dir, '.git/logs'))).toBe(false);
  });

  it('with core.logAllRefUpdates unset (a repository with a working tree): creates the logs', async () => {
    const dir = crudRepo();
    rmSync(join(dir, '.git/logs'), { recursive: true });
    const service = await start(dir);
    expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { n: '1' } })).status).toBe(200);
    expect(gitOut(dir, 'reflog', 'show', '--format=%gs', 'main')).toBe('commit: namespaces: update team-a');
    expect(gitOut(dir, 'reflog', 'show', '--format=%gs', 'HEAD')).toBe('commit: namespaces: update team-a');
  });
});

describe('the remote Git backend', () => {
  it("logs its clone's branch moves: its own commits, and following the remote", async () => {
    const service = await start(undefined, 'git-remote');
    const clone = service.prepared.env.CONFIG_CLONE_DIR;
    expect((await send(service, 'PATCH', '/namespaces/team-a', { labels: { n: '1' } })).status).toBe(200);
    const written = gitOut(clone, 'rev-parse', 'main');
    expect(gitOut(clone, 'reflog', 'show', '--format=%H %gs', 'main').split('\n')[0]).toBe(
      `${written} commit: namespaces: update team-a`,
    );
    expect(gitOut(clone, 'reflog', 'show', '--format=%H %gs', 'HEAD').split('\n')[0]).toBe(
      `${written} commit: namespaces: update team-a`,
    );

    // Someone pushes; once served, the clone's branch follows it.
    const { work } = service.prepared.remote!;
    git(work, 'pull', '-q', 'origin', 'main');
    writeFiles(work, { 'namespaces/team-b.yaml': { id: 'team-b', labels: { pushed: 'yes' } } });
    git(work, 'commit', '-qam', 'a person relabels team-b');
    git(work, 'push', '-q', 'origin', 'HEAD:main');
    const pushed = git(work, 'rev-parse', 'HEAD');
    await eventually(
      async () => {
        await announcePush(service);
        return gitOut(clone, 'rev-parse', 'main') === pushed;
      },
      // A fetch, a load and a reload of the clone: past 5 s once in a full run at a load of 5.
      20_000,
      100,
    );
    expect(gitOut(clone, 'reflog', 'show', '--format=%H %gs', 'main').split('\n')[0]).toBe(
      `${pushed} pull: Fast-forward`,
    );
    expect(gitOut(clone, 'fsck', '--no-dangling', '--no-progress')).toBe('');
  });
});
