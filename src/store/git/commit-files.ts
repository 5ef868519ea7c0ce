// The record files of a commit, read straight from the Git object store (no checkout).
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { isRecordFileName, RECORD_FOLDERS } from '../../domain/repo-layout/record-path.ts';
import { byPath, DEFAULT_MAX_RECORD_BYTES, type RecordFileEntry, RecordRefused } from '../record-files/record-file-entry.ts';
import { notRegular, tooLarge } from '../record-files/safe-read.ts';
import { ObjectReader, BlobTooLarge } from './files/object-reader.ts';
import { sharedGitDir } from './git-directory.ts';

export interface TreeBlob {
  path: string;
  oid: string;
  /** Git's file mode: 100644 or 100755 for a file, 120000 for a symbolic link, 160000 for a submodule. */
  mode: string;
}

const SYMLINK = '120000';
const SUBMODULE = '160000';

/**
 * Every *.yaml / *.yml entry under the four record folders of `commitOid` (files, links,
 * submodules), in path order. `folder` is where the config repo sits inside the repository
 * ("" at its top, "fleet/config" below it); paths are given from there.
 */
export async function recordBlobsOfCommit(dir: string, commitOid: string, cache: object = {}, reader?: ObjectReader, folder = ''): Promise<TreeBlob[]> {
  const native = reader && nativeRecordBlobs(reader, commitOid, folder);
  if (native) return native;
  const blobs: TreeBlob[] = [];
  const gitdir = sharedGitDir(dir);
  const visit = async (path: string): Promise<void> => {
    let tree;
    try {
      tree = await git.readTree({ fs, gitdir, oid: commitOid, filepath: folder === '' ? path : `${folder}/${path}`, cache });
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError') return;
      throw error;
    }
    for (const entry of tree.tree) {
      const child = `${path}/${entry.path}`;
      if (entry.type === 'tree') await visit(child);
      else if (isRecordFileName(entry.path)) blobs.push({ path: child, oid: entry.oid, mode: entry.mode });
    }
  };
  for (const recordFolder of RECORD_FOLDERS) await visit(recordFolder);
  return blobs.sort(byPath);
}

/**
 * The same, read with Node's zlib and remembered trees (a folder that did not change between
 * two commits is one tree, parsed once); undefined when an object is not readable that way.
 */
function nativeRecordBlobs(reader: ObjectReader, commitOid: string, folder: string): TreeBlob[] | undefined {
  const commit = reader.readCommit(commitOid);
  let root = commit && reader.readTree(commit.tree);
  if (!root) return undefined;
  for (const name of folder === '' ? [] : folder.split('/')) {
    const entry = root.find((e) => e.path === name && e.type === 'tree');
    if (!entry) return []; // the config folder does not exist in this commit: it holds no records
    root = reader.readTree(entry.oid);
    if (!root) return undefined;
  }
  const blobs: TreeBlob[] = [];
  const visit = (oid: string, path: string): boolean => {
    const tree = reader.readTree(oid);
    if (!tree) return false;
    for (const entry of tree) {
      const child = `${path}/${entry.path}`;
      if (entry.type === 'tree') {
        if (!visit(entry.oid, child)) return false;
      } else if (isRecordFileName(entry.path)) {
        blobs.push({ path: child, oid: entry.oid, mode: entry.mode });
      }
    }
    return true;
  };
  for (const folder of RECORD_FOLDERS) {
    const entry = root.find((e) => e.path === folder && e.type === 'tree');
    if (entry && !visit(entry.oid, folder)) return undefined;
  }
  return blobs.sort(byPath);
}

/** The record file paths whose entries differ between two commits (changed, added or removed). */
export async function changedBetween(dir: string, from: string, to: string, cache: object, reader?: ObjectReader): Promise<string[]> {
  const [before, after] = await Promise.all([recordBlobsOfCommit(dir, from, cache, reader), recordBlobsOfCommit(dir, to, cache, reader)]);
  const old = new Map(before.map((blob) => [blob.path, `${blob.mode} ${blob.oid}`]));
  const changed: string[] = [];
  for (const blob of after) {
    if (old.get(blob.path) !== `${blob.mode} ${blob.oid}`) changed.push(blob.path);
    old.delete(blob.path);
  }
  return [...changed, ...old.keys()];
}

/**
 * The record files of a commit, each read only when asked (a loader that knows a blob's
 * parse never reads it). `known` holds texts already read, by blob id.
 */
export async function commitFileEntries(
  dir: string,
  commit: string,
  cache: object,
  reader: ObjectReader = new ObjectReader(dir, cache),
  known: ReadonlyMap<string, string> = new Map(),
  maxBytes = DEFAULT_MAX_RECORD_BYTES,
  /** Where the config repo sits inside the repository, as for recordBlobsOfCommit. */
  folder = '',
): Promise<RecordFileEntry[]> {
  const blobs = await recordBlobsOfCommit(dir, commit, cache, reader, folder);
  return blobs.map((blob): RecordFileEntry => {
    if (blob.mode === SYMLINK || blob.mode === SUBMODULE) {
      return { path: blob.path, blobId: blob.oid, refused: notRegular(blob.path, blob.mode === SYMLINK ? 'a symbolic link' : 'a submodule') };
    }
    const read = async () => {
      try {
        return await reader.readText(blob.oid, maxBytes);
      } catch (error) {
        if (error instanceof BlobTooLarge) throw new RecordRefused(tooLarge(blob.path, error.bytes, maxBytes));
        throw error;
      }
    };
    return { path: blob.path, blobId: blob.oid, text: known.get(blob.oid), read };
  });
}

export async function readBlobText(dir: string, oid: string, cache: object = {}): Promise<string> {
  const { blob } = await git.readBlob({ fs, gitdir: sharedGitDir(dir), oid, cache });
  return Buffer.from(blob).toString('utf8');
}
