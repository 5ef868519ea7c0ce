// The record files of a commit, read straight from the Git object store (no checkout).
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { isRecordFileName, RECORD_FOLDERS } from '../../domain/repo-layout/record-path.ts';
import { fileReads } from '../record-files/read-pool.ts';
import {
  byPath,
  DEFAULT_MAX_RECORD_BYTES,
  type RecordFileEntry,
  RecordRefused,
} from '../record-files/record-file-entry.ts';
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
export async function recordBlobsOfCommit(
  dir: string,
  commitOid: string,
  cache: object = {},
  reader?: ObjectReader,
  folder = '',
): Promise<TreeBlob[]> {
  const native = reader && nativeRecordBlobs(reader, commitOid, folder);
  if (native) return native;
  const blobs: TreeBlob[] = [];
  const gitdir = sharedGitDir(dir);
  const visit = async (path: string): Promise<void> => {
    let tree;
    try {
      tree = await git.readTree({
        fs,
        gitdir,
        oid: commitOid,
        filepath: folder === '' ? path : `${folder}/${path}`,
        cache,
      });
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
export async function changedBetween(
  dir: string,
  from: string,
  to: string,
  cache: object,
  reader?: ObjectReader,
): Promise<string[]> {
  const [before, after] = await Promise.all([
    recordBlobsOfCommit(dir, from, cache, reader),
    recordBlobsOfCommit(dir, to, cache, reader),
  ]);
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
      return {
        path: blob.path,
        blobId: blob.oid,
        refused: notRegular(blob.path, blob.mode === SYMLINK ? 'a symbolic link' : 'a submodule'),
      };
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

/**
 * The texts of some record files of a commit, read as the loaders read them: regular files
 * (not links, not submodules) within `maxBytes`, through the read pool. A path the commit
 * holds no such file at is left out. One reader for all, so that a folder's tree is read once.
 */
export async function commitFileTexts(
  dir: string,
  commit: string,
  paths: readonly string[],
  cache: object,
  maxBytes = DEFAULT_MAX_RECORD_BYTES,
): Promise<Map<string, string>> {
  const reader = new ObjectReader(dir, cache);
  const texts = new Map<string, string>();
  await fileReads.map(paths, async (path) => {
    const native = nativeBlobAt(reader, commit, path);
    const blob = native === undefined ? await blobAt(dir, commit, path, cache) : native;
    // A link or a submodule is never read as a record file, here neither.
    if (!blob || blob.type !== 'blob' || blob.mode === SYMLINK) return;
    try {
      texts.set(path, await reader.readText(blob.oid, maxBytes));
    } catch (error) {
      if (!(error instanceof BlobTooLarge)) throw error;
    }
  });
  return texts;
}

type PathEntry = { oid: string; mode: string; type: string } | null;

/** The entry at `path` in a commit, read natively; null when there is none, undefined when not readable here. */
function nativeBlobAt(reader: ObjectReader, commitOid: string, path: string): PathEntry | undefined {
  const commit = reader.readCommit(commitOid);
  let tree = commit && reader.readTree(commit.tree);
  const names = path.split('/');
  for (const [i, name] of names.entries()) {
    if (!tree) return undefined;
    const entry = tree.find((e) => e.path === name);
    if (!entry) return null;
    if (i === names.length - 1) return entry;
    if (entry.type !== 'tree') return null;
    tree = reader.readTree(entry.oid);
  }
  return null;
}

/** The same through isomorphic-git, for objects the native reader does not handle. */
async function blobAt(dir: string, commit: string, path: string, cache: object): Promise<PathEntry> {
  const slash = path.lastIndexOf('/');
  try {
    const { tree } = await git.readTree({
      fs,
      gitdir: sharedGitDir(dir),
      oid: commit,
      filepath: slash === -1 ? '' : path.slice(0, slash),
      cache,
    });
    return tree.find((e) => e.path === path.slice(slash + 1)) ?? null;
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return null;
    throw error;
  }
}

export async function readBlobText(dir: string, oid: string, cache: object = {}): Promise<string> {
  const { blob } = await git.readBlob({ fs, gitdir: sharedGitDir(dir), oid, cache });
  return Buffer.from(blob).toString('utf8');
}
