// Lists the record files of a config repo's working tree (only the four record folders),
// reading each through the bounded pool.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecordFileName, RECORD_FOLDERS } from '../../domain/repo-layout/record-path.ts';
import { fileReads } from './read-pool.ts';
import { byPath, gitBlobId, type RecordFileEntry } from './record-file-entry.ts';

/** Every *.yaml / *.yml regular file of the record folders, with its text, in path order. */
export async function readWorkingTree(dir: string): Promise<RecordFileEntry[]> {
  const paths: string[] = [];
  for (const folder of RECORD_FOLDERS) {
    let entries;
    try {
      entries = await readdir(join(dir, folder), { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isFile() || !isRecordFileName(entry.name)) continue;
      paths.push(join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/'));
    }
  }
  const files = await fileReads.map(paths, async (path) => {
    const bytes = await readFile(join(dir, path));
    return { path, blobId: gitBlobId(bytes), text: bytes.toString('utf8') };
  });
  return files.sort(byPath);
}

/** Files in the record folders that are skipped for their name (not *.yaml / *.yml). */
export async function ignoredWorkingTreeFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const folder of RECORD_FOLDERS) {
    let entries;
    try {
      entries = await readdir(join(dir, folder), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith('.') || isRecordFileName(entry.name)) continue;
      found.push(join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/'));
    }
  }
  return found.sort();
}
