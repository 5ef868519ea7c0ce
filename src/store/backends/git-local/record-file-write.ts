// Replacing a record file so that nobody ever sees half of it: the content goes to a
// temporary file, is flushed, and renamed over the record, and the record's folder is
// flushed (the rename must not be undone by a power loss once the branch names the file's
// content). The temporary file lives in the Git directory, so a crash never leaves a stray
// file in the working tree for `git status` to show (the next start removes it).
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectory, renameFlushed, syncDirectory, writeFlushedFile } from '../../flushed-file.ts';
import { serviceDir } from '../../git/files/lock-file.ts';
import { ownTag } from '../../process-identity.ts';

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
