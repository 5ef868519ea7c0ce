// The record files of one revision of a config repo: the working tree, or a commit read
// straight from the Git object store (isomorphic-git, no checkout), and the revision names
// a person types (main, origin/main, v1.2, a short commit id, HEAD~1, HEAD^2). The config repo
// may be any folder of a Git repository: revisions are read from the repository that holds it,
// each commit's tree at the folder's path.
import * as fs from 'node:fs';
import isomorphicGit from 'isomorphic-git';
import { commitFileEntries } from '../store/git/commit-files.ts';
import { ObjectReader } from '../store/git/files/object-reader.ts';
import { type GitDirectory, requireGitDirectory } from '../store/git/git-directory.ts';
import { resolveWorktreeRef } from '../store/git/repository.ts';
import { checkedGitDirectory } from '../store/git/repository-format.ts';
import { type GitLocation, locateInGitRepository } from '../store/git/repository-root.ts';
import type { RecordFileEntry } from '../store/record-files/record-file-entry.ts';
import { readWorkingTree } from '../store/record-files/working-tree.ts';

export interface RevisionFiles {
  /** What the person asked for ("main", "HEAD~1"), or "working tree". */
  label: string;
  /** The commit id; undefined for the working tree. */
  commit?: string;
  files: RecordFileEntry[];
}

/** A revision that cannot be found or read: a usage error, not a problem of the config. */
export class RevisionError extends Error {}

export async function workingTreeFiles(dir: string): Promise<RevisionFiles> {
  return { label: 'working tree', files: await readWorkingTree(dir) };
}

/**
 * The Git repository that holds the config repo `dir`, for reading revision `rev` from it.
 * Throws UnsupportedRepositoryForm (or GitDirectoryError) for a repository not to be read.
 */
export function historyOf(dir: string, rev: string): GitLocation {
  const location = locateInGitRepository(dir);
  if (!location)
    throw new RevisionError(
      `${dir} is not a Git repository, nor inside one (no .git in it or above it), so revision "${rev}" cannot be read`,
    );
  checkedGitDirectory(location.root);
  return location;
}

/**
 * The record files of a commit. `known` holds texts already read by blob id (the other side of
 * a diff, the checkout), so that a file unchanged between two revisions is read once.
 */
export async function commitFiles(
  repo: GitLocation,
  label: string,
  commit: string,
  cache: object,
  known: ReadonlyMap<string, string> = new Map(),
  reader: ObjectReader = new ObjectReader(repo.root, cache),
  maxBytes?: number,
): Promise<RevisionFiles> {
  return {
    label,
    commit,
    files: await commitFileEntries(repo.root, commit, cache, reader, known, maxBytes, repo.folder),
  };
}

/** Resolves a revision to a commit id: a branch, remote branch, tag, (short) commit id, HEAD, with ~N and ^N. */
export async function resolveRevision(repo: GitLocation, rev: string, cache: object): Promise<string> {
  const git = requireGitDirectory(repo.root);
  const match = /^(.*?)((?:[~^]\d*)*)$/.exec(rev.trim());
  const name = match?.[1] ?? '';
  const steps = match?.[2] ?? '';
  if (name === '') throw new RevisionError(`"${rev}" is not a revision`);
  let oid = await resolveName(git, name, cache);
  for (const [, op, count] of steps.matchAll(/([~^])(\d*)/g)) {
    const n = count === '' ? 1 : Number(count);
    if (op === '~') {
      for (let i = 0; i < n; i++) oid = await parent(git.commonDir, oid, 1, rev, cache);
    } else if (n > 0) {
      oid = await parent(git.commonDir, oid, n, rev, cache);
    }
  }
  return oid;
}

async function resolveName(repo: GitDirectory, name: string, cache: object): Promise<string> {
  const gitdir = repo.commonDir;
  let oid: string | undefined;
  try {
    oid = await resolveWorktreeRef(repo, name);
  } catch {
    oid = undefined;
  }
  if (oid === undefined) {
    if (/^[0-9a-f]{4,40}$/i.test(name)) {
      try {
        oid = await isomorphicGit.expandOid({ fs, gitdir, oid: name.toLowerCase(), cache });
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw new RevisionError(
          code === 'AmbiguousError'
            ? `"${name}" matches more than one object; give more digits`
            : `no commit or ref named "${name}"`,
        );
      }
    }
  }
  if (oid === undefined)
    throw new RevisionError(
      `no commit or ref named "${name}" (is the history fetched? CI checkouts often need fetch-depth: 0)`,
    );
  // Annotated tags point at a tag object; follow them to the commit.
  for (let hops = 0; hops < 10; hops++) {
    let object;
    try {
      object = await isomorphicGit.readObject({ fs, gitdir, oid, cache, format: 'parsed' });
    } catch {
      throw new RevisionError(
        `"${name}" resolves to ${oid}, which is not in the object store (is the history fetched?)`,
      );
    }
    if (object.type === 'commit') return oid;
    if (object.type === 'tag') {
      oid = (object.object as { object: string }).object;
      continue;
    }
    throw new RevisionError(`"${name}" is a ${object.type}, not a commit`);
  }
  throw new RevisionError(`"${name}" is a chain of tags too long to follow`);
}

async function parent(gitdir: string, oid: string, n: number, rev: string, cache: object): Promise<string> {
  let commit;
  try {
    commit = await isomorphicGit.readCommit({ fs, gitdir, oid, cache });
  } catch {
    throw new RevisionError(`commit ${oid} (from "${rev}") is not in the object store (is the history fetched?)`);
  }
  const found = commit.commit.parent[n - 1];
  if (!found) throw new RevisionError(`"${rev}": commit ${oid.slice(0, 12)} has no parent number ${n}`);
  return found;
}
