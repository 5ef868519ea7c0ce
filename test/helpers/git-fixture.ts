// Builds real config repos in temp directories with the git command line.
import { execFileSync } from 'node:child_process';
import { type RepoFiles, tempDir, writeFiles } from './temp-files.ts';

export { removeDir, type RepoFiles, tempDir, writeFiles } from './temp-files.ts';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test Engineer',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test Engineer',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  }).trim();
}

/** A config repo directory; with `git: true` (the default) a Git repository with one commit. */
export function makeConfigRepo(files: RepoFiles, options: { git?: boolean } = {}): string {
  const dir = tempDir('config-repo-');
  writeFiles(dir, files);
  if (options.git ?? true) {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial config');
  }
  return dir;
}

export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}
