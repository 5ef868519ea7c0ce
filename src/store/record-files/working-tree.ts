// Lists the record files of a config repo's working tree (only the four record folders),
// reading each through the bounded pool.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecordFileName, RECORD_FOLDERS } from '../../domain/repo-layout/record-path.ts';
import { fileReads } from './read-pool.ts';
import { byPath, gitBlobId, type RecordFileEntry } from './record-file-entry.ts';

/** Every *.yaml / *.yml regular file of the record folders, with its text, in path order. */
export async function readWorkingTree(dir: string): Promise<RecordFileEntry[]> {
  const { records } = await listRecordFolders(dir);
  const files = await fileReads.map(records, async (path) => {
    const bytes = await readFile(join(dir, path));
    return { path, blobId: gitBlobId(bytes), text: bytes.toString('utf8') };
  });
  return files.sort(byPath);
}

/** Files in the record folders that are skipped for their name (not *.yaml / *.yml, not hidden). */
export async function ignoredWorkingTreeFiles(dir: string): Promise<string[]> {
  return (await listRecordFolders(dir)).ignored.sort();
}

/** The regular files of the record folders, as repo paths: those read as records and the others. */
async function listRecordFolders(dir: string): Promise<{ records: string[]; ignored: string[] }> {
  const records: string[] = [];
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
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/');
      if (isRecordFileName(entry.name)) records.push(path);
      else if (!entry.name.startsWith('.')) ignored.push(path);
    }
  }
  return { records, ignored };
}
