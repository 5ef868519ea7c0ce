// Lists the record files of a config repo's working tree (only the four record folders) and
// reads each through the bounded pool, safely (./safe-read.ts): what is not a regular file or
// is too large is listed with the problem that keeps it from being read.
import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecordFileName, RECORD_FOLDERS } from '../../domain/repo-layout/record-path.ts';
import { fileReads } from './read-pool.ts';
import { byPath, DEFAULT_MAX_RECORD_BYTES, gitBlobId, type RecordFileEntry } from './record-file-entry.ts';
import { fileKind, notRegular, readRecordFileSafely } from './safe-read.ts';

/** Every *.yaml / *.yml entry of the record folders, read (or refused), in path order. */
export async function readWorkingTree(dir: string, maxBytes = DEFAULT_MAX_RECORD_BYTES): Promise<RecordFileEntry[]> {
  const { records, refused } = await listRecordFolders(dir);
  const files = await fileReads.map(records, async (path): Promise<RecordFileEntry | undefined> => {
    let read;
    try {
      read = await readRecordFileSafely(dir, path, maxBytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // gone since it was listed
      throw error;
    }
    return 'refused' in read ? { path, blobId: read.blobId, refused: read.refused } : { path, blobId: read.blobId, text: read.bytes.toString('utf8') };
  });
  return [...files.filter((f) => f !== undefined), ...refused].sort(byPath);
}

/** Files in the record folders that are skipped for their name (not *.yaml / *.yml, not hidden). */
export async function ignoredWorkingTreeFiles(dir: string): Promise<string[]> {
  return (await listRecordFolders(dir)).ignored.sort();
}

/** The entries of the record folders, as repo paths: files to read, record names that are no regular files, and the others. */
async function listRecordFolders(dir: string): Promise<{ records: string[]; refused: RecordFileEntry[]; ignored: string[] }> {
  const records: string[] = [];
  const refused: RecordFileEntry[] = [];
  const ignored: string[] = [];
  for (const folder of RECORD_FOLDERS) {
    let entries;
    try {
      entries = await readdir(join(dir, folder), { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const entry of entries) {
      const path = join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/');
      if (entry.isFile()) {
        if (isRecordFileName(entry.name)) records.push(path);
        else if (!entry.name.startsWith('.')) ignored.push(path);
      } else if (!entry.isDirectory() && isRecordFileName(entry.name)) {
        // A link, a pipe or a device under a record's name: never followed nor opened. A link's
        // id is Git's (the blob of its target), so a committed link leaves the tree clean.
        const kind = fileKind(entry);
        const blobId = entry.isSymbolicLink() ? gitBlobId(Buffer.from(await readlink(join(dir, path)))) : `refused:${kind}`;
        refused.push({ path, blobId, refused: notRegular(path, kind) });
      }
    }
  }
  return { records, refused, ignored };
}
