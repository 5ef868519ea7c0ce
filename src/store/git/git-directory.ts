// Where the Git directory of a working tree is, found the way git finds it (setup.c). Usually
// `<dir>/.git` is the directory itself. In a linked worktree (`git worktree add`) and in a
// submodule's checkout, `.git` is a file saying `gitdir: <path>` (relative to the folder that
// holds the file, or absolute). A linked worktree's Git directory then names, in its
// `commondir` file, the directory it shares with the main working tree: the objects, the
// branches, packed-refs and the config live there, while HEAD, the index and logs/HEAD are
// the worktree's own.
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface GitDirectory {
  /** The working tree's own Git directory: HEAD, the index, logs/HEAD, ORIG_HEAD, MERGE_HEAD. */
  gitdir: string;
  /**
   * The directory every working tree of the repository shares: objects, refs (branches,
   * tags), packed-refs, config. The same as `gitdir` except in a linked worktree.
   */
  commonDir: string;
}

/** A `.git` that git itself would not accept: a file in the wrong form, or naming a directory that is not there. */
export class GitDirectoryError extends Error {}

/**
 * The Git directory of the working tree `dir`; undefined when `dir` holds no `.git` at all.
 * Throws GitDirectoryError for a `.git` git would refuse too.
 */
export function gitDirectoryOf(dir: string): GitDirectory | undefined {
  const dotGit = join(resolve(dir), '.git');
  const kind = entryKind(dotGit);
  if (kind === undefined) return undefined;
  let gitdir = dotGit;
  if (kind === 'file') {
    // As git reads it: "gitdir: " and the path, to the end of the file less its line end.
    const text = readFileSync(dotGit, 'utf8');
    const named = text.startsWith('gitdir: ') ? text.slice('gitdir: '.length).replace(/[\r\n]+$/, '') : '';
    if (named === '') {
      throw new GitDirectoryError(
        `${dotGit} is a file but not of the form "gitdir: <path>" (git says: invalid gitfile format)`,
      );
    }
    gitdir = isAbsolute(named) ? resolve(named) : resolve(dirname(dotGit), named);
    if (entryKind(gitdir) !== 'directory') {
      throw new GitDirectoryError(
        `${dotGit} points to ${gitdir}, which is not a directory (a moved or removed worktree? "git worktree repair" ` +
          `fixes the link)`,
      );
    }
  } else if (kind !== 'directory') {
    throw new GitDirectoryError(`${dotGit} is neither a directory nor a "gitdir:" file`);
  }
  return { gitdir, commonDir: commonDirOf(gitdir) };
}

/** The Git directory of `dir`, which must be a working tree of a Git repository. */
export function requireGitDirectory(dir: string): GitDirectory {
  const found = gitDirectoryOf(dir);
  if (!found) throw new GitDirectoryError(`${dir} is not a Git repository (it has no .git)`);
  return found;
}

/**
 * The directory that holds the objects and branches of `dir`'s repository, for reading commits
 * and blobs; `<dir>/.git` when there is none (the read then fails as any read of a missing
 * repository does).
 */
export function sharedGitDir(dir: string): string {
  return gitDirectoryOf(dir)?.commonDir ?? join(resolve(dir), '.git');
}

function commonDirOf(gitdir: string): string {
  let named: string;
  try {
    named = readFileSync(join(gitdir, 'commondir'), 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return gitdir;
    throw error;
  }
  const common = isAbsolute(named) ? resolve(named) : resolve(gitdir, named);
  if (entryKind(common) !== 'directory')
    throw new GitDirectoryError(`${join(gitdir, 'commondir')} names ${common}, which is not a directory`);
  return common;
}

function entryKind(path: string): 'file' | 'directory' | 'other' | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return undefined;
    throw error;
  }
}
