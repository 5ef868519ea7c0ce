// The forms a config repo's Git repository can take. A linked worktree (`git worktree add`)
// and a submodule checkout, whose `.git` is a file: served, written (the commit lands on the
// worktree's branch, in its own log, with `git status` clean) and followed live, while the
// main working tree stays as it was. A repository in a form the code does not read or write
// (sha256 objects, reftable refs, an extension not known) is refused at start with one line
// naming it, by the server and by the tools alike — mirroring what git itself accepts.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StartupError } from '../../../src/shared/startup-error.ts';
import { parseGitConfig } from '../../../src/store/git/format/config-file.ts';
import { asRepoFiles } from '../../helpers/fixture-data.ts';
import { commitAll, git, makeConfigRepo, tempDir, writeFiles } from '../../helpers/git-fixture.ts';
import { eventually, request } from '../../helpers/http.ts';
import { READ_TOKEN, startTestService } from '../../helpers/service.ts';
import { CRUD_DATA, type CrudService, gitOut, send, crudServicesClosedAfterEach } from '../../helpers/crud.ts';
import { MAIN } from '../../helpers/process.ts';
import { runTool } from '../../helpers/run-tool.ts';

const start = crudServicesClosedAfterEach();

/** What a write elsewhere must leave as it was in a working tree. */
function treeState(dir: string) {
  return {
    head: gitOut(dir, 'rev-parse', 'HEAD'),
    branch: gitOut(dir, 'symbolic-ref', 'HEAD'),
    status: gitOut(dir, 'status', '--porcelain'),
    index: readFileSync(gitOut(dir, 'rev-parse', '--path-format=absolute', '--git-path', 'index')).toString('hex'),
  };
}

async function servedRevision(service: CrudService): Promise<string> {
  return (await request(service.url, '/clusters/c1', { token: READ_TOKEN })).headers['x-config-revision'] as string;
}

/**
 * A person edits team-b's file, then commits it with git: the edit is served (a dirty
 * revision), then the commit — which changes nothing in the working tree, only the branch in
 * the Git directory outside it, so only a watch of that directory notices it in time.
 */
async function personCommits(service: CrudService, dir: string, labels: Record<string, string>): Promise<void> {
  const head = gitOut(dir, 'rev-parse', 'HEAD');
  writeFiles(dir, { 'namespaces/team-b.yaml': { labels } });
  await eventually(async () => (await servedRevision(service)).startsWith(`${head}+dirty.`), 3000);
  const commit = commitAll(dir, 'a person edits team-b');
  await eventually(async () => (await servedRevision(service)) === commit, 3000);
  expect((await send(service, 'GET', '/namespaces/team-b')).json().labels).toEqual(labels);
}

describe('a linked worktree (git worktree add)', () => {
  it(
    'is served, written on its own branch with git status clean, and followed live; the main working tree is not ' +
      'disturbed',
    async () => {
      const main = makeConfigRepo(asRepoFiles(CRUD_DATA));
      const worktree = join(tempDir('worktree-'), 'feature');
      git(main, 'worktree', 'add', '-q', '-b', 'feature', worktree);
      git(main, 'pack-refs', '--all'); // the branches then live in packed-refs of the common directory only
      const mainBefore = treeState(main);
      const service = await start(worktree);

      const read = await request(service.url, '/clusters/c1', { token: READ_TOKEN });
      expect(read.status).toBe(200);
      expect(read.headers['x-config-revision']).toBe(gitOut(worktree, 'rev-parse', 'HEAD'));

      const write = await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } });
      expect(write.status).toBe(200);
      expect(gitOut(worktree, 'log', '-1', '--format=%s')).toBe('namespaces: update team-b');
      expect(gitOut(worktree, 'rev-parse', 'HEAD')).toBe(write.headers['x-config-revision']);
      expect(gitOut(main, 'rev-parse', 'feature')).toBe(write.headers['x-config-revision']);
      expect(gitOut(worktree, 'status', '--porcelain')).toBe('');
      expect(readFileSync(join(worktree, 'namespaces/team-b.yaml'), 'utf8')).toMatch(/tier: "?gold/);
      expect(treeState(main)).toEqual(mainBefore);
      expect(gitOut(main, 'fsck', '--no-progress')).toBe('');

      await personCommits(service, worktree, { tier: 'silver' });
      expect(treeState(main)).toEqual(mainBefore);
    },
  );

  it("follows a checkout there that changes no file, only the worktree's own HEAD", async () => {
    const main = makeConfigRepo(asRepoFiles(CRUD_DATA));
    const worktree = join(tempDir('worktree-'), 'feature');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', worktree);
    // Another branch one empty commit ahead: the same files, another commit.
    const ahead = git(main, 'commit-tree', '-p', 'feature', '-m', 'an empty commit', 'feature^{tree}');
    git(main, 'branch', 'same-files', ahead);
    const service = await start(worktree);
    expect(await servedRevision(service)).toBe(gitOut(main, 'rev-parse', 'feature'));
    git(worktree, 'checkout', '-q', 'same-files');
    await eventually(async () => (await servedRevision(service)) === ahead, 3000);
    expect((await send(service, 'POST', '/namespaces', { id: 'team-h' })).status).toBe(201);
    expect(gitOut(main, 'log', '-1', '--format=%s', 'same-files')).toBe('namespaces: create team-h');
  });

  it("the tools read its revisions: HEAD is the worktree's, the objects and branches the shared ones", async () => {
    const main = makeConfigRepo(asRepoFiles(CRUD_DATA));
    const worktree = join(tempDir('worktree-'), 'feature');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', worktree);
    writeFiles(worktree, { 'namespaces/team-a.yaml': { labels: { team: 'a', tier: 'gold' } } });
    const head = commitAll(worktree, 'label team-a on feature');
    git(main, 'gc', '-q'); // every object packed, in the common directory only

    const diff = await runTool(['diff', worktree, 'main', 'HEAD', '--format', 'json']);
    expect(diff.status, diff.stderr).toBe(0);
    const report = JSON.parse(diff.stdout);
    expect(report.base.commit).toBe(gitOut(main, 'rev-parse', 'main'));
    expect(report.head.commit).toBe(head);
    expect(report.summary.inputs_changed).toBeGreaterThan(0);
    expect((await runTool(['validate', worktree, '--base', 'HEAD~1'])).status).toBe(0);
  });
});

describe('a submodule checkout', () => {
  it(
    'is served, written in the submodule with its status ' +
      'clean, and followed live; the superproject is not touched',
    async () => {
      const origin = makeConfigRepo(asRepoFiles(CRUD_DATA));
      const superproject = makeConfigRepo({ 'README.md': 'the platform\n' });
      git(superproject, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'config');
      commitAll(superproject, 'add the config repo as a submodule');
      const dir = join(superproject, 'config');
      expect(readFileSync(join(dir, '.git'), 'utf8')).toMatch(/^gitdir: \.\.\/\.git\/modules\/config/);
      const superBefore = {
        head: gitOut(superproject, 'rev-parse', 'HEAD'),
        index: gitOut(superproject, 'ls-files', '--stage'),
      };
      const service = await start(dir);

      expect((await request(service.url, '/clusters/c1', { token: READ_TOKEN })).status).toBe(200);
      const write = await send(service, 'POST', '/namespaces', { id: 'team-s' });
      expect(write.status).toBe(201);
      expect(gitOut(dir, 'log', '-1', '--format=%s')).toBe('namespaces: create team-s');
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
      expect(gitOut(dir, 'ls-files', 'namespaces/team-s.yaml')).toBe('namespaces/team-s.yaml');
      expect({
        head: gitOut(superproject, 'rev-parse', 'HEAD'),
        index: gitOut(superproject, 'ls-files', '--stage'),
      }).toEqual(superBefore);

      await personCommits(service, dir, { from: 'git' });
    },
  );
});

/** The settings of a start on `dir` in `mode`. */
const startEnv = (dir: string, mode: string): Record<string, string> => ({
  AUTH_TOKEN: 't',
  CRUD_AUTH_TOKEN: 'w',
  API_MODE: mode,
  CONFIG_REPO: dir,
  LISTEN_ADDR: '127.0.0.1:0',
});

/** Runs the real entry point: a refused start is one line on stderr and exit status 2. */
function startMain(dir: string, mode = 'crud') {
  const result = spawnSync(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...startEnv(dir, mode) },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { status: result.status, lines: result.stderr.trim().split('\n'), stderr: result.stderr };
}

function sha256Repo(): string {
  const dir = tempDir('config-repo-');
  writeFiles(dir, asRepoFiles(CRUD_DATA));
  git(dir, 'init', '-q', '-b', 'main', '--object-format=sha256');
  commitAll(dir, 'initial config');
  return dir;
}

/** A SHA-1 config repo whose config also says `settings` ("section.key" -> value). */
function repoWith(settings: Record<string, string>): string {
  const dir = makeConfigRepo(asRepoFiles(CRUD_DATA));
  // Written by hand: `git config` itself refuses to run in a repository that declares what
  // this git does not know (reftable needs git 2.45). The last value of a name counts.
  const text = Object.entries(settings).map(([name, value]) => {
    const [section, key] = name.split('.');
    return `[${section}]\n\t${key} = ${value}\n`;
  });
  appendFileSync(join(dir, '.git', 'config'), text.join(''));
  return dir;
}

/** Whether git itself works in `dir`. */
function gitAccepts(dir: string): boolean {
  return spawnSync('git', ['status', '--porcelain'], { cwd: dir }).status === 0;
}

describe('repository forms refused at start', () => {
  it.each([
    [
      'a sha256 repository (git init --object-format=sha256)',
      sha256Repo,
      /sha256 object format \(extensions\.objectFormat = sha256\)/,
    ],
    [
      'reftable ref storage',
      () => repoWith({ 'core.repositoryformatversion': '1', 'extensions.refStorage': 'reftable' }),
      /stores its refs in reftable \(extensions\.refStorage = reftable\)/,
    ],
    [
      'an extension not known',
      () => repoWith({ 'core.repositoryformatversion': '1', 'extensions.frobnicate': 'true' }),
      /uses the repository extension extensions\.frobnicate = true, which is not known here/,
    ],
    [
      'a format version above 1',
      () => repoWith({ 'core.repositoryformatversion': '2' }),
      /core\.repositoryFormatVersion = 2; only versions 0 and 1/,
    ],
    [
      'a version-1 extension in a version-0 repository',
      () => repoWith({ 'extensions.objectFormat': 'sha1' }),
      /sets extensions\.objectFormat = sha1 while core\.repositoryFormatVersion is 0/,
    ],
  ])('%s: crud and read-only starts fail with one line naming it', async (_name, make, expected) => {
    const dir = make();
    for (const mode of ['crud', 'read-only']) {
      const error = await startTestService(startEnv(dir, mode)).then(
        (service) => service.close().then(() => expect.fail(`a ${mode} start was not refused`)),
        (refusal: Error) => refusal,
      );
      // What main.ts prints as its one line, exiting 2 (the real start below shows it).
      expect(error, mode).toBeInstanceOf(StartupError);
      expect(error.message).not.toContain('\n');
      expect(error.message).toMatch(/^CONFIG_REPO /);
      expect(error.message).toMatch(expected);
    }
  });

  it('stops the real start (src/main.ts) with that one line on stderr and exit status 2', () => {
    const result = startMain(sha256Repo());
    expect(result.status, result.stderr).toBe(2);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/^gitops-config-api: CONFIG_REPO .*sha256 object format/);
  });

  it('the tools refuse such a repository too (exit 2, one line), where they read Git', async () => {
    const dir = sha256Repo();
    for (const args of [
      ['diff', dir, 'HEAD'],
      ['validate', dir, '--base', 'HEAD'],
      ['inputs', dir, 'c1.k8s.example.com'],
    ]) {
      const result = await runTool(args);
      expect(result.status, `${args[0]}: ${result.stderr}`).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^gitops-config: the Git repository .* uses the sha256 object format/);
    }
    // Judging the working tree alone reads no Git.
    expect((await runTool(['validate', dir])).status).toBe(0);
  });

  it('mirrors git: what git refuses is refused, what git accepts is served and written', async () => {
    const unknownV1 = repoWith({ 'core.repositoryformatversion': '1', 'extensions.frobnicate': 'true' });
    const v1OnlyInV0 = repoWith({ 'extensions.objectFormat': 'sha1' });
    expect(gitAccepts(unknownV1)).toBe(false);
    expect(gitAccepts(v1OnlyInV0)).toBe(false);

    // Version 1 with the extensions that are harmless here; version 0 ignores names it does not know.
    const accepted = [
      repoWith({
        'core.repositoryformatversion': '1',
        'extensions.objectFormat': 'sha1',
        'extensions.worktreeConfig': 'true',
        'extensions.preciousObjects': 'true',
        'extensions.noop': 'true',
      }),
      repoWith({ 'extensions.frobnicate': 'true' }),
    ];
    for (const dir of accepted) {
      expect(gitAccepts(dir)).toBe(true);
      const service = await start(dir);
      expect((await send(service, 'POST', '/namespaces', { id: 'team-x' })).status).toBe(201);
      expect(gitOut(dir, 'status', '--porcelain')).toBe('');
      expect(gitOut(dir, 'log', '-1', '--format=%s')).toBe('namespaces: create team-x');
    }
  });

  it('a .git file naming a directory that is gone stops the start with one line saying so', async () => {
    const main = makeConfigRepo(asRepoFiles(CRUD_DATA));
    const worktree = join(tempDir('worktree-'), 'moved');
    git(main, 'worktree', 'add', '-q', '-b', 'moved', worktree);
    execFileSync('rm', ['-rf', join(main, '.git', 'worktrees', 'moved')]);
    const result = startMain(worktree);
    expect(result.status).toBe(2);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/\.git points to .*worktrees\/moved, which is not a directory/);
  });
});

describe('the config file reader', () => {
  it('reads sections, subsections, keys alone, quotes, escapes, comments and continuations as git does', async () => {
    const config = parseGitConfig(
      [
        '# a comment',
        '[core]',
        '\trepositoryFormatVersion = 1 ; trailing comment',
        '[Extensions] worktreeConfig',
        '  objectformat = "sha1"',
        '[remote "Origin"]',
        '  url = "a b\\"c" # comment',
        '  fetch = +refs/heads/*:\\',
        'refs/remotes/origin/*',
        '[section.Sub]',
        '  key = one',
        '  key = two  ',
      ].join('\n'),
    );
    expect(Object.fromEntries(config)).toEqual({
      'core.repositoryformatversion': ['1'],
      'extensions.worktreeconfig': [null],
      'extensions.objectformat': ['sha1'],
      'remote.Origin.url': ['a b"c'],
      'remote.Origin.fetch': ['+refs/heads/*:refs/remotes/origin/*'],
      'section.sub.key': ['one', 'two'],
    });
    expect(() => parseGitConfig('[core]\n  x = "unterminated\n')).toThrow(/bad config line/);
  });
});
