// Replacing a record file so that nobody ever sees half of it: the content goes to a
// temporary file, is flushed, and renamed over the record, and the record's folder is
// flushed (the rename must not be undone by a power loss once the branch names the file's
// content). The files of one commit (a change set's) are written and flushed side by side,
// renamed, and each folder flushed once after its renames: a hundred files cost a hundred
// flushes the disk takes together, not two hundred one after another. The temporary file lives in the Git directory, so
// a crash never leaves a stray
// file in the working tree for `git status` to show (the next start removes it).
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectory, renameFlushed, syncDirectory, writeFlushedFile } from '../../git/files/flushed-file.ts';
import { serviceDir } from '../../git/files/lock-file.ts';
import { ownTag } from '../../git/files/process-identity.ts';
import { fileWrites } from '../../record-files/read-pool.ts';

let sequence = 0;

export function temporaryDir(gitdir: string): string {
  return join(serviceDir(gitdir), 'tmp');
}

/** Writes `content` to `full` through a flushed temporary file and a rename; null removes the file. */
export async function replaceFile(gitdir: string, full: string, content: string | Buffer | null): Promise<void> {
  if (content === null) {
    await rm(full, { force: true });
    await syncDirectory(dirname(full)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // no folder: there was no file either
    });
    return;
  }
  await makeDirectory(dirname(full));
  const inGitDir = join(temporaryDir(gitdir), `${ownTag()}.${++sequence}`);
  await makeDirectory(temporaryDir(gitdir));
  try {
    await writeFlushedFile(inGitDir, content);
    await renameFlushed(inGitDir, full);
  } catch (error) {
    await rm(inGitDir, { force: true });
    // The Git directory on another file system (a rare layout): a hidden name beside the file.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const beside = join(dirname(full), `.gitops-config-${ownTag()}-${++sequence}.tmp`);
    try {
      await writeFlushedFile(beside, content);
      await renameFlushed(beside, full);
    } catch (besideError) {
      await rm(beside, { force: true });
      throw besideError;
    }
  }
}

/** A file to replace: its path and new content (null removes it). */
export interface FileReplacement {
  full: string;
  content: string | Buffer | null;
}

/**
 * Replaces several files, each as replaceFile does, with the flushes shared: every new
 * content written to a temporary file and flushed (at once, on the thread pool), then every
 * rename, then each folder flushed once. Until the last folder is flushed any of the files
 * may be the old or the new one; the journal (./write-journal.ts) names them all.
 */
export async function replaceFiles(gitdir: string, files: readonly FileReplacement[]): Promise<void> {
  if (files.length === 1) return replaceFile(gitdir, files[0].full, files[0].content);
  const folders = new Set(files.map((f) => dirname(f.full)));
  await makeDirectory(temporaryDir(gitdir));
  for (const folder of new Set(files.filter((f) => f.content !== null).map((f) => dirname(f.full))))
    await makeDirectory(folder);
  const written = files
    .filter((f) => f.content !== null)
    .map((f) => ({ ...f, temporary: join(temporaryDir(gitdir), `${ownTag()}.${++sequence}`) }));
  try {
    await fileWrites.map(written, (f) => writeFlushedFile(f.temporary, f.content!));
    for (const f of written) {
      await rename(f.temporary, f.full).catch(async (error: NodeJS.ErrnoException) => {
        // The Git directory on another file system: this file the slower way, beside itself.
        if (error.code !== 'EXDEV') throw error;
        await replaceFile(gitdir, f.full, f.content);
      });
    }
  } finally {
    await Promise.all(written.map((f) => rm(f.temporary, { force: true })));
  }
  for (const f of files) if (f.content === null) await rm(f.full, { force: true });
  for (const folder of folders) {
    await syncDirectory(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // no folder: only removals there, of files that were not
    });
  }
}
