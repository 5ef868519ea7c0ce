// Reads the record files of a commit straight from the Git object store (no checkout).
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { COLLECTIONS } from '../../domain/records.ts';

export interface TreeBlob {
  path: string;
  oid: string;
}

/** Every *.yaml / *.yml blob under the four record folders of `commitOid`. */
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
      else if (entry.type === 'blob' && /\.ya?ml$/.test(entry.path)) blobs.push({ path, oid: entry.oid });
    }
  };
  for (const collection of COLLECTIONS) await visit(collection);
  return blobs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export async function readBlobText(dir: string, oid: string, cache: object = {}): Promise<string> {
  const { blob } = await git.readBlob({ fs, dir, oid, cache });
  return Buffer.from(blob).toString('utf8');
}
