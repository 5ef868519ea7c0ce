// Facts about a config repo directory: is it a Git repository, which commit HEAD names, and
// the revision id of its working tree. HEAD is the working tree's own (./git-directory.ts): in
// a linked worktree it is not the main working tree's.
import * as fs from 'node:fs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { contentHashInSlices } from '../record-files/record-file-entry.ts';
import { SliceTimer } from '../runner/event-loop.ts';
import { recordBlobsOfCommit, type TreeBlob } from './commit-files.ts';
import { ObjectReader } from './files/object-reader.ts';
import { type GitDirectory, gitDirectoryOf } from './git-directory.ts';

export function isGitRepository(dir: string): boolean {
  return existsSync(join(dir, '.git'));
}

export async function headCommit(dir: string): Promise<string | undefined> {
  const repo = gitDirectoryOf(dir);
  return repo && resolveWorktreeRef(repo, 'HEAD');
}

/**
 * A ref as the working tree sees it: HEAD and git's other all-capital refs (ORIG_HEAD,
 * MERGE_HEAD, FETCH_HEAD) are the working tree's own, read from its Git directory; branches,
 * tags and remote branches are shared, read from the common one (a linked worktree's HEAD
 * names a branch that lives there). Undefined when the ref does not exist or names no commit
 * yet (a branch before its first commit).
 */
export async function resolveWorktreeRef(repo: GitDirectory, ref: string): Promise<string | undefined> {
  let name = ref;
  if (/^[A-Z_]+$/.test(ref)) {
    const text = await fs.promises.readFile(join(repo.gitdir, ref), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text !== undefined) {
      const symbolic = /^ref: *(\S+)/.exec(text)?.[1];
      if (symbolic === undefined) return /^[0-9a-f]{40}(?![0-9a-f])/.exec(text)?.[0];
      name = symbolic;
    }
  }
  try {
    return await git.resolveRef({ fs, gitdir: repo.commonDir, ref: name });
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return undefined;
    throw error;
  }
}

/** The branch HEAD points to ("refs/heads/main"), or undefined when HEAD is detached (or there is no repository). */
export async function currentBranch(dir: string): Promise<string | undefined> {
  // HEAD is one short line ("ref: refs/heads/main"), the working tree's own; every write asks.
  const repo = gitDirectoryOf(dir);
  const head = repo && (await fs.promises.readFile(join(repo.gitdir, 'HEAD'), 'utf8').catch(() => undefined));
  return head === undefined ? undefined : /^ref: (refs\/heads\/\S+)\s*$/.exec(head)?.[1];
}

/** The commit id at the start of a working-tree revision id ("<commit>+dirty.<hash>"). */
export function commitOfRevision(revision: string): string | undefined {
  return /^[0-9a-f]{40}/.exec(revision)?.[0];
}

/**
 * The revision id of a working tree with these record files (path order): HEAD's commit id
 * when the files match HEAD; "<commit>+dirty.<hash>" when they hold uncommitted edits; a
 * content hash when the directory is not a Git repository or has no commit yet.
 */
export async function workingTreeRevision(
  dir: string,
  files: readonly { path: string; blobId: string }[],
  cache: object,
  reader: ObjectReader = new ObjectReader(dir, cache),
  /** The record files of the HEAD commit last looked at, kept by the caller across calls: HEAD rarely moves. */
  headFiles: { commit?: string; blobs?: readonly TreeBlob[] } = {},
): Promise<string> {
  const hash = async () => (await contentHashInSlices(files)).slice(0, 12);
  if (!isGitRepository(dir)) return `content-${await hash()}`;
  const head = await headCommit(dir);
  if (!head) return `uncommitted-${await hash()}`;
  if (headFiles.commit !== head || !headFiles.blobs) {
    headFiles.blobs = await recordBlobsOfCommit(dir, head, cache, reader);
    headFiles.commit = head;
  }
  const edits = await editsOfCommit(headFiles.blobs, files);
  if (edits?.length === 0) return head;
  // The same files as HEAD's with a few edited (the usual case) are named by those edits: no
  // hash of 100,000 entries per reload. Files added or removed: by all of them.
  const named = edits ? (await contentHashInSlices(edits, 'edits of the same paths')).slice(0, 12) : await hash();
  return `${head}+dirty.${named}`;
}

/**
 * The files whose content differs from the commit's, when both list the same paths in the same
 * order (undefined otherwise); compared in slices.
 */
async function editsOfCommit(
  committed: readonly TreeBlob[],
  files: readonly { path: string; blobId: string }[],
): Promise<{ path: string; blobId: string }[] | undefined> {
  if (committed.length !== files.length) return undefined;
  const edits: { path: string; blobId: string }[] = [];
  const slices = new SliceTimer();
  for (let i = 0; i < files.length; i++) {
    if (i % 4096 === 0) await slices.turnIfDue();
    if (committed[i].path !== files[i].path) return undefined;
    if (committed[i].oid !== files[i].blobId) edits.push(files[i]);
  }
  return edits;
}
