// Where a folder sits in a Git repository: the repository's top folder (the one holding .git)
// and the folder's path inside it. A config repo is often a folder of a larger repository, and
// a command is often typed from below the top: revisions are read from the top folder's object
// store, and each commit's tree at the folder's path, as `git rev-parse --show-toplevel` and
// `--show-prefix` would place them.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

export interface GitLocation {
  /** The folder that holds .git (a directory, or a file for a worktree or submodule). */
  root: string;
  /** The folder's path inside the repository, with "/" between names; "" at the top. */
  folder: string;
}

/** The repository `dir` belongs to, found by walking up from it; undefined outside any repository. */
export function locateInGitRepository(dir: string): GitLocation | undefined {
  // Real paths, so that a symbolic link on the way (/tmp -> /private/tmp) cannot make the
  // folder's path inside the repository wrong.
  const start = realpathSync(dir);
  for (let current = start; ; current = dirname(current)) {
    if (existsSync(join(current, '.git')))
      return { root: current, folder: relative(current, start).split(sep).join('/') };
    if (dirname(current) === current) return undefined;
  }
}
