// Commits one record file change in a checked-out config repo: exactly that change, on top of
// the branch's commit (whatever else is staged or edited stays out of it), then the branch
// moves and the file's index entry follows, so that `git status` stays clean.
//
// Order: the commit's objects (harmless until named); the branch's lock, taken only if the
// branch is still where the change was computed (else RefMoved: nothing touched); the file;
// the branch; the index entry (written last, in one rename). A failure after the file was
// written puts the file and the branch back, so a failed write leaves no trace.
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { CommitBuilder } from '../../git/commit-builder.ts';
import { setIndexEntry } from '../../git/format/index-file.ts';
import { lockRef, updateRef } from '../../git/format/ref-file.ts';

export interface WorkingTreeChange {
  /** Path inside the repo: "<folder>/<file>". */
  path: string;
  /** The new content; null removes the file. */
  text: string | null;
  /** The file's content before the change (undefined: there was no file), restored on failure. */
  previous: Buffer | undefined;
}

/** Returns the new commit and the file's blob id (null after a removal). */
export async function commitToWorkingTree(
  dir: string,
  builder: CommitBuilder,
  branchRef: string,
  change: WorkingTreeChange,
  message: string,
  parent: string,
): Promise<{ commit: string; blob: string | null }> {
  const gitdir = join(dir, '.git');
  const full = filePath(dir, change.path);
  const { commit, blob } = await builder.build(change, message, parent);
  const branch = await lockRef(gitdir, branchRef, parent);
  let movedBranch = false;
  try {
    await writeOrRemove(full, change.text);
    await branch.commit(commit);
    movedBranch = true;
    const entry = blob === null ? null : { oid: blob, stats: await stat(full, { bigint: true }) };
    await setIndexEntry(gitdir, change.path, entry);
    return { commit, blob };
  } catch (error) {
    await putBack(gitdir, branchRef, full, change.previous, movedBranch ? { from: commit, to: parent } : undefined).catch((putBackError: unknown) => {
      (error as Error).message += `; putting the repo back also failed: ${(putBackError as Error).message}`;
    });
    if (!movedBranch) await branch.release();
    throw error;
  }
}

async function putBack(gitdir: string, branchRef: string, full: string, previous: Buffer | undefined, branch: { from: string; to: string } | undefined): Promise<void> {
  if (branch) await updateRef(gitdir, branchRef, branch.to, branch.from);
  await writeOrRemove(full, previous ?? null);
}

let temporaryCount = 0;

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
async function writeOrRemove(full: string, content: string | Buffer | null): Promise<void> {
  if (content === null) {
    await rm(full, { force: true });
    return;
  }
  await mkdir(dirname(full), { recursive: true });
  // A short hidden name beside it: the record's own name may already use 255 bytes.
  const temporary = join(dirname(full), `.gitops-config-${process.pid}-${++temporaryCount}.tmp`);
  try {
    await writeFile(temporary, content);
    await rename(temporary, full);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The absolute path of a record file; refuses anything outside the repo's record folders. */
function filePath(dir: string, path: string): string {
  const full = resolve(join(dir, path));
  if (!full.startsWith(resolve(dir) + sep) || path.split('/').length !== 2) throw new Error(`refusing to write "${path}": not a record file path`);
  return full;
}
