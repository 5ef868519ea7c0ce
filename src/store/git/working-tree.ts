// Reads the record files of a config repo's working tree (only the four record folders).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { COLLECTIONS } from '../../domain/records.ts';

export interface RepoFile {
  /** Path inside the repo, with forward slashes. */
  path: string;
  bytes: Buffer;
}

export async function readRecordFiles(dir: string): Promise<RepoFile[]> {
  const files: RepoFile[] = [];
  for (const collection of COLLECTIONS) {
    let entries;
    try {
      entries = await readdir(join(dir, collection), { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const paths = entries
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1).split('\\').join('/'));
    const read = await Promise.all(paths.map(async (path) => ({ path, bytes: await readFile(join(dir, path)) })));
    files.push(...read);
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The object id Git gives a file's content (SHA-1 of "blob <size>\0" + bytes). */
export function gitBlobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A hash of a set of files (paths and contents), for a revision id outside Git. */
export function contentHash(files: { path: string; blobId: string }[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.path}\0${f.blobId}\n`);
  return hash.digest('hex');
}
