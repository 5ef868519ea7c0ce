// The revision id of a config repo directory: the commit id of HEAD when the directory is a
// Git repository whose record files match HEAD; that id plus "+dirty.<hash>" when the working
// tree has uncommitted edits; a content hash when the directory is not a Git repository.
import * as fs from 'node:fs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { recordBlobsOfCommit } from './commit-tree.ts';
import { contentHash } from './working-tree.ts';

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

export async function workingTreeRevision(
  dir: string,
  files: { path: string; blobId: string }[],
  cache: object,
): Promise<string> {
  const hash = contentHash(files).slice(0, 12);
  if (!isGitRepository(dir)) return `content-${hash}`;
  const head = await headCommit(dir);
  if (!head) return `uncommitted-${hash}`;
  const committed = await recordBlobsOfCommit(dir, head, cache);
  const same =
    committed.length === files.length && committed.every((blob, i) => blob.path === files[i]!.path && blob.oid === files[i]!.blobId);
  return same ? head : `${head}+dirty.${hash}`;
}
