// Facts about a config repo directory: is it a Git repository, which commit HEAD names, and
// the revision id of its working tree.
import * as fs from 'node:fs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { contentHash } from '../record-files/record-file-entry.ts';
import { recordBlobsOfCommit, type TreeBlob } from './commit-files.ts';
import { ObjectReader } from './format/object-reader.ts';

export function isGitRepository(dir: string): boolean {
  return existsSync(join(dir, '.git'));
}

export async function headCommit(dir: string): Promise<string | undefined> {
  try {
    return await git.resolveRef({ fs, dir, ref: 'HEAD' });
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return undefined; // no commit yet
    throw error;
  }
}

/** The branch HEAD points to ("refs/heads/main"), or undefined when HEAD is detached. */
export async function currentBranch(dir: string): Promise<string | undefined> {
  // HEAD is one short line ("ref: refs/heads/main"); read it directly: every write asks.
  const head = await fs.promises.readFile(join(dir, '.git', 'HEAD'), 'utf8').catch(() => undefined);
  if (head !== undefined) return /^ref: (refs\/heads\/\S+)\s*$/.exec(head)?.[1];
  return (await git.currentBranch({ fs, dir, fullname: true })) ?? undefined;
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
  const hash = () => contentHash(files).slice(0, 12);
  if (!isGitRepository(dir)) return `content-${hash()}`;
  const head = await headCommit(dir);
  if (!head) return `uncommitted-${hash()}`;
  if (headFiles.commit !== head || !headFiles.blobs) {
    headFiles.blobs = await recordBlobsOfCommit(dir, head, cache, reader);
    headFiles.commit = head;
  }
  const committed = headFiles.blobs;
  const same = committed.length === files.length && committed.every((blob, i) => blob.path === files[i]!.path && blob.oid === files[i]!.blobId);
  return same ? head : `${head}+dirty.${hash()}`;
}
