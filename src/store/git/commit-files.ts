// The record files of a commit, read straight from the Git object store (no checkout).
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { isRecordFileName, RECORD_FOLDERS } from '../../domain/repo-layout/record-path.ts';
import { byPath, type RecordFileEntry } from '../record-files/record-file-entry.ts';
import { BlobReader } from './format/blob-reader.ts';

export interface TreeBlob {
  path: string;
  oid: string;
}

/** Every *.yaml / *.yml blob under the four record folders of `commitOid`, in path order. */
export async function recordBlobsOfCommit(dir: string, commitOid: string, cache: object = {}): Promise<TreeBlob[]> {
  const blobs: TreeBlob[] = [];
  const visit = async (filepath: string): Promise<void> => {
    let tree;
    try {
      tree = await git.readTree({ fs, dir, oid: commitOid, filepath, cache });
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError') return;
      throw error;
    }
    for (const entry of tree.tree) {
      const path = `${filepath}/${entry.path}`;
      if (entry.type === 'tree') await visit(path);
      else if (entry.type === 'blob' && isRecordFileName(entry.path)) blobs.push({ path, oid: entry.oid });
    }
  };
  for (const folder of RECORD_FOLDERS) await visit(folder);
  return blobs.sort(byPath);
}

/**
 * The record files of a commit, each read only when asked (a loader that knows a blob's
 * parse never reads it). `known` holds texts already read, by blob id.
 */
export async function commitFileEntries(
  dir: string,
  commit: string,
  cache: object,
  reader: BlobReader = new BlobReader(dir, cache),
  known: ReadonlyMap<string, string> = new Map(),
): Promise<RecordFileEntry[]> {
  const blobs = await recordBlobsOfCommit(dir, commit, cache);
  return blobs.map((blob) => ({
    path: blob.path,
    blobId: blob.oid,
    text: known.get(blob.oid),
    read: () => reader.readText(blob.oid),
  }));
}

export async function readBlobText(dir: string, oid: string, cache: object = {}): Promise<string> {
  const { blob } = await git.readBlob({ fs, dir, oid, cache });
  return Buffer.from(blob).toString('utf8');
}
