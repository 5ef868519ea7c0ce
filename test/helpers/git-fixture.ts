// Builds real config repos in temp directories with the git command line, started from the
// tests' process starter (./process-starter.ts).
import { runCommandText } from './process-starter.ts';
import { type RepoFiles, tempDir, writeFiles } from './temp-files.ts';

export { removeDir, type RepoFiles, tempDir, writeFiles } from './temp-files.ts';

const AUTHOR = {
  GIT_AUTHOR_NAME: 'Test Engineer',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test Engineer',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export function git(dir: string, ...args: string[]): string {
  return runCommandText('git', args, { cwd: dir, env: { ...process.env, ...AUTHOR } }).trim();
}

const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Several git commands in one process start, stopping at the first that fails (which throws, as
 * `git` does); the last one's output. Every process start costs CPU on these machines, even from
 * the small process that starts them (./process-starter.ts): one `sh` that starts the gits costs
 * about what one git does.
 */
export function gitSteps(dir: string, ...steps: string[][]): string {
  const script = steps.map((args) => ['git', ...args].map(quoted).join(' ')).join(' && ');
  return runCommandText('sh', ['-c', script], { cwd: dir, env: { ...process.env, ...AUTHOR } }).trim();
}

/** A config repo directory; with `git: true` (the default) a Git repository with one commit. */
export function makeConfigRepo(files: RepoFiles, options: { git?: boolean } = {}): string {
  const dir = tempDir('config-repo-');
  writeFiles(dir, files);
  if (options.git ?? true) {
    gitSteps(dir, ['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'initial config']);
  }
  return dir;
}

export function commitAll(dir: string, message: string): string {
  return gitSteps(dir, ['add', '-A'], ['commit', '-q', '-m', message], ['rev-parse', 'HEAD']);
}
