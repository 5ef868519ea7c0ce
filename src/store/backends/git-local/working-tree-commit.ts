// Commits record file changes in a checked-out config repo — one file for a REST write,
// several for a change set — as one commit: exactly those changes, on top of the branch's
// commit (whatever else is staged or edited stays out of it), with the files and their index
// entries moved along, so that `git status` stays clean.
//
// The order is git's own (what `git commit` does): the commit's objects first (flushed;
// harmless until named); then index.lock, then the branch's lock — taken only if the branch
// is still where the change was computed (else RefMoved: nothing touched); both waited for
// while a person's git command holds them. Under the locks: the index is read and checked,
// the intent is journalled (./write-journal.ts: every file of the commit), the files
// replaced one by one, the new index (every entry patched at once) written into index.lock,
// and the branch moved (logged in its reflog, and in HEAD's) — the moment the write happens —
// then the index renamed into place. A failure before the branch moved puts every file back;
// a crash anywhere, also between two files, is finished or undone for all of them by the next
// start from the journal.
//
// In a linked worktree the index and the journal are the worktree's own and the branch and
// the objects are the repository's shared ones (../../git/git-directory.ts).
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Logger } from 'pino';
import { BaseMoved, describeError, isDiskFull, StoreUnavailable } from '../../errors.ts';
import type { CommitAuthor, CommitBuilder } from '../../git/commit-builder.ts';
import { type GitDirectory, requireGitDirectory } from '../../git/git-directory.ts';
import { IndexFileCache } from '../../git/files/index-file-access.ts';
import { IndexNotWritable, type IndexPatch, patchIndexEntries } from '../../git/format/index-file.ts';
import { LockFile, LockHeld, type LockOptions } from '../../git/files/lock-file.ts';
import { writeLooseObject } from '../../git/files/loose-object.ts';
import { objectId } from '../../git/format/object-id.ts';
import { moveRef, readRef, RefMoved, updateRef } from '../../git/files/ref-file.ts';
import { commitReflogMessage } from '../../git/files/reflog.ts';
import { SliceTimer } from '../../runner/event-loop.ts';
import { replaceFile, replaceFiles } from './record-file-write.ts';
import { clearIntent, recordIntent } from './write-journal.ts';

export interface WorkingTreeChange {
  /** Path inside the repo: "<folder>/<file>". */
  path: string;
  /** The new content; null removes the file. */
  text: string | null;
  /** The file's content before the change (undefined: there was no file), restored on failure. */
  previous: Buffer | undefined;
}

/** The index lock and the branch's lock, held together: what a commit needs, taken in git's order. */
export interface WriteLocks {
  index: LockFile;
  branch: LockFile;
  release(): Promise<void>;
}

/**
 * Takes index.lock (the working tree's own), then the branch's lock (in the common Git
 * directory, where a linked worktree's branches live), each waited for (up to
 * `options.waitMs`) while a person's git command holds it.
 */
export async function takeWriteLocks(
  repo: GitDirectory,
  branchRef: string,
  options: LockOptions = {},
): Promise<WriteLocks> {
  const index = await LockFile.take(repo.gitdir, 'index', options);
  try {
    const branch = await LockFile.take(repo.commonDir, branchRef, options);
    return {
      index,
      branch,
      async release() {
        await branch.release();
        await index.release();
      },
    };
  } catch (error) {
    await index.release();
    throw error;
  }
}

export interface WorkingTreeCommit {
  /** The branch to move ("refs/heads/main"): it must still name `parent`. */
  branchRef: string;
  parent: string;
  /** Each file once. */
  changes: readonly WorkingTreeChange[];
  message: string;
  /** Who made the change, when not the service (a person): the commit's author; the service commits it. */
  author?: CommitAuthor;
  /** The locks, already taken (and the caller's to release); else they are taken here. */
  locks?: WriteLocks;
  /** How long to wait for a lock someone else holds, and who hears of stale locks removed. */
  lockOptions?: LockOptions;
  /** The index as the last write left it, kept by the caller across writes. */
  indexCache?: IndexFileCache;
}

/** Returns the new commit and each file's blob id (null after a removal), in the order of the changes. */
export async function commitToWorkingTree(
  dir: string,
  builder: CommitBuilder,
  write: WorkingTreeCommit,
): Promise<{ commit: string; blobs: (string | null)[] }> {
  const { branchRef, parent, changes, message } = write;
  const repo = requireGitDirectory(dir);
  const { gitdir, commonDir } = repo;
  const full = changes.map((change) => filePath(dir, change.path));
  // The commit's objects are written in the background meanwhile; the branch waits for them.
  const { commit, blobs, written, parentBlobs } = await builder.build(changes, message, parent, write.author);
  // The contents to put back after a crash, kept where the journal can find them (usually the
  // parent commit has them already; uncommitted edits of a file are stored first).
  const previousBlobs: (string | null)[] = [];
  const slices = new SliceTimer();
  for (const [i, change] of changes.entries()) {
    previousBlobs.push(await storedPrevious(commonDir, change.previous, parentBlobs[i]));
    await slices.turnIfDue();
  }
  const locks = write.locks ?? (await takeWriteLocks(repo, branchRef, write.lockOptions));
  /** How many files may have been replaced: all of them once the first replacement began. */
  let touched = 0;
  let moved = false;
  try {
    // Compare-and-swap: the branch must still be where the change was computed.
    const current = await readRef(commonDir, branchRef);
    if (current !== parent)
      throw new RefMoved(
        `${branchRef} moved to ${current ?? '(nothing)'} while a change on ${parent} was being written`,
      );
    // The index is read only now, under its lock (a person's `git add` cannot slip in between),
    // and before anything is touched: an index a write must not go through (a merge in
    // progress, a damaged file, a form this code cannot keep) refuses the write here.
    const indexCache = write.indexCache ?? new IndexFileCache();
    const index = await indexCache.read(gitdir);
    const files = changes.map((change, i) => ({ path: change.path, blob: blobs[i]!, previousBlob: previousBlobs[i]! }));
    await recordIntent(gitdir, { ref: branchRef, parent, commit, files });
    touched = changes.length;
    await replaceFiles(
      gitdir,
      changes.map((change, i) => ({ full: full[i], content: change.text })),
    );
    const patches: IndexPatch[] = await Promise.all(
      changes.map(async (change, i) => {
        const blob = blobs[i]!;
        return {
          path: change.path,
          entry: blob === null ? null : { oid: blob, stats: await stat(full[i], { bigint: true }) },
        };
      }),
    );
    const patched = index && patchIndexEntries(index, patches, indexCache.scratch());
    // Not flushed: git does not flush the index either (it is rebuilt from HEAD after a power loss).
    if (patched) await locks.index.write(patched.bytes, false);
    await written;
    await locks.branch.write(`${commit}\n`);
    await moveRef(commonDir, locks.branch, parent, commit, {
      committer: builder.author,
      message: commitReflogMessage(message),
      worktreeGitdir: gitdir,
    });
    moved = true;
    if (patched) {
      await locks.index.commit();
      await write.indexCache?.remember(gitdir, patched);
    }
    await clearIntent(gitdir);
    if (!write.locks) await locks.release();
    return { commit, blobs };
  } catch (error) {
    const putBack = async () => {
      // The rename may have happened even when what followed it failed: the branch says.
      if (moved || (await readRef(commonDir, branchRef)) === commit) {
        const undo = {
          committer: builder.author,
          message: `reset: moving to ${parent} (undoing a write that failed after its commit)`,
          worktreeGitdir: gitdir,
        };
        await updateRef(commonDir, branchRef, parent, commit, undo, write.lockOptions);
      }
      for (let i = 0; i < touched; i++) await replaceFile(gitdir, full[i], changes[i].previous ?? null);
      await clearIntent(gitdir);
      if (!write.locks) await locks.release();
    };
    await putBack().catch((putBackError: unknown) => {
      (error as Error).message +=
        `; putting the repo back also failed (the next start repairs it): ${(putBackError as Error).message}`;
    });
    throw error;
  }
}

/** The blob id of the file's content before the write, stored as an object unless the parent commit holds it. */
async function storedPrevious(
  commonDir: string,
  previous: Buffer | undefined,
  parentBlob: string | undefined,
): Promise<string | null> {
  if (previous === undefined) return null;
  const id = objectId('blob', previous);
  return id === parentBlob ? id : writeLooseObject(commonDir, 'blob', previous, id);
}

/** The absolute path of a record file; refuses anything outside the repo's record folders. */
function filePath(dir: string, path: string): string {
  const full = resolve(join(dir, path));
  if (!full.startsWith(resolve(dir) + sep) || path.split('/').length !== 2)
    throw new Error(`refusing to write "${path}": not a record file path`);
  return full;
}

/**
 * A failed commit as the store's typed error: the store moved, a lock held, a full disk, an
 * index it cannot keep; else an I/O fault, logged.
 */
export function commitFault(error: unknown, log: Logger): Error {
  if (error instanceof RefMoved) return new BaseMoved(error.message);
  if (error instanceof LockHeld) return new StoreUnavailable('locked', `${error.message}; nothing was stored`);
  if (isDiskFull(error)) return new StoreUnavailable('disk_full', 'no space left on device; nothing was stored');
  if (error instanceof IndexNotWritable)
    return new StoreUnavailable('repository_state', `${error.message}; nothing was stored`);
  log.error({ err: error }, 'a write could not be committed; the repo was put back as it was');
  return new StoreUnavailable(
    'io',
    `the change could not be committed, so nothing was stored: ${describeError(error)}`,
  );
}
