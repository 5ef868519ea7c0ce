// What a write in progress is about to do to the working tree, kept in the Git directory
// until it is done, so that the next start can finish or undo a write a crash cut off:
// between the first record file's rename and the branch's move, files hold content HEAD does
// not have; between the branch's move and the index's, the index is behind HEAD. Either
// would show in `git status`, and a person's next `git commit -a` would undo the service's
// commit. The intent names every file of the commit (several for a change set), so a crash
// between two of them is repaired for all. The branch decides: moved to the write's commit,
// the write happened (every file and its index entry are brought to it); still on its parent,
// it did not (every file is put back).
//
// The journal file is named after the writing process's incarnation (its tag:
// ../../process-identity.ts), written flushed and renamed into place with its folder flushed,
// so that neither a restarted process with the same id nor a power loss can hide it from
// the repair.
import { lstat, readdir, readFile, rm, stat } from 'node:fs/promises';
import * as fs from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import type { Logger } from 'pino';
import { type GitDirectory, requireGitDirectory } from '../../git/git-directory.ts';
import { readIndexFile, setIndexEntry } from '../../git/files/index-file-access.ts';
import { indexEntryOid } from '../../git/format/index-file.ts';
import { makeDirectory, renameFlushed, writeFlushedFile } from '../../git/files/flushed-file.ts';
import { clearStaleLocks, serviceDir } from '../../git/files/lock-file.ts';
import { clearStaleObjectFiles } from '../../git/files/loose-object.ts';
import { objectId } from '../../git/format/object-id.ts';
import { readRef } from '../../git/files/ref-file.ts';
import { isAlive, ownTag, TAG_PATTERN } from '../../git/files/process-identity.ts';
import { replaceFile, temporaryDir } from './record-file-write.ts';

/** One file of a journalled write. */
export interface IntendedFile {
  /** The record file, relative to the repo. */
  path: string;
  /** The file's blob after the write; null: the write removes it. */
  blob: string | null;
  /** The file's blob before the write (stored as an object first); null: there was no file. */
  previousBlob: string | null;
}

export interface WriteIntent {
  /** The branch the write moves ("refs/heads/main"). */
  ref: string;
  parent: string;
  commit: string;
  /** Every file the commit changes. */
  files: IntendedFile[];
}

/** The intent as a journal file holds it: a version before change sets wrote one file's fields at the top level. */
type JournalledIntent = WriteIntent | (Omit<WriteIntent, 'files'> & IntendedFile);

function intentOf(journalled: JournalledIntent): WriteIntent {
  if ('files' in journalled) return journalled;
  const { ref, parent, commit, path, blob, previousBlob } = journalled;
  return { ref, parent, commit, files: [{ path, blob, previousBlob }] };
}

function journalDir(gitdir: string): string {
  return join(serviceDir(gitdir), 'writes');
}

const JOURNAL_FILE = new RegExp(`^(${TAG_PATTERN})\\.json$`);
/** A journal file not yet renamed into place: its write had not begun. */
const JOURNAL_DRAFT = new RegExp(`^(${TAG_PATTERN})\\.json\\.tmp$`);

/** Records the intent, on disk, before the working tree is touched. */
export async function recordIntent(gitdir: string, intent: WriteIntent): Promise<void> {
  const dir = journalDir(gitdir);
  await makeDirectory(dir);
  const file = join(dir, `${ownTag()}.json`);
  await rm(`${file}.tmp`, { force: true });
  await writeFlushedFile(`${file}.tmp`, JSON.stringify(intent));
  await renameFlushed(`${file}.tmp`, file);
}

/** The write is done or fully undone: nothing to repair. */
export async function clearIntent(gitdir: string): Promise<void> {
  await rm(join(journalDir(gitdir), `${ownTag()}.json`), { force: true });
}

/** Whether a stopped process of this service left a write to repair (a look at one folder, usually empty). */
export async function hasInterruptedWrites(gitdir: string): Promise<boolean> {
  for (const name of await readdir(journalDir(gitdir)).catch(() => [] as string[])) {
    const match = JOURNAL_FILE.exec(name);
    if (match && !(await isAlive(match[1]))) return true;
  }
  return false;
}

/**
 * When the repair runs: once at the start, before anything is read — and every write awaits
 * that one, so that none can run before it — and again before a write whenever a process of
 * this service that stopped since the start (another instance on the same repo) left a
 * journalled write: it is finished or undone before this write is built on the working tree.
 */
export class WriteRepair {
  readonly #dir: string;
  readonly #log: Logger;
  #atStart: Promise<void> | undefined;

  constructor(dir: string, log: Logger) {
    this.#dir = dir;
    this.#log = log;
  }

  atStart(): Promise<void> {
    this.#atStart ??= repairInterruptedWrites(this.#dir, this.#log);
    return this.#atStart;
  }

  /**
   * Before a write: whether something was repaired (the working tree may have changed). Usually one look at an empty
   * folder.
   */
  async beforeWrite(): Promise<boolean> {
    await this.atStart();
    if (!(await hasInterruptedWrites(requireGitDirectory(this.#dir).gitdir))) return false;
    await repairInterruptedWrites(this.#dir, this.#log);
    return true;
  }
}

/**
 * Repairs what a crashed process of this service left in the repo: its lock files, the write
 * it was in the middle of, its temporary files. A person's locks and edits are not touched.
 */
export async function repairInterruptedWrites(dir: string, log: Logger): Promise<void> {
  const repo = requireGitDirectory(dir);
  const { gitdir } = repo;
  // A linked worktree's branch locks are taken in the common Git directory.
  const lockDirs = repo.commonDir === gitdir ? [gitdir] : [gitdir, repo.commonDir];
  for (const lockDir of lockDirs) {
    for (const { lock, owner } of await clearStaleLocks(lockDir))
      log.warn({ lock, owner }, 'removed a lock file a stopped write of this service left');
  }
  const journal = journalDir(gitdir);
  for (const name of await readdir(journal).catch(() => [] as string[])) {
    const match = JOURNAL_FILE.exec(name) ?? JOURNAL_DRAFT.exec(name);
    if (!match || (await isAlive(match[1]))) continue;
    if (match.input.endsWith('.json')) {
      const intent = intentOf(JSON.parse(await readFile(join(journal, name), 'utf8')) as JournalledIntent);
      const outcome = await finishOrUndo(dir, repo, intent);
      log.warn(
        { paths: intent.files.map((f) => f.path), commit: intent.commit, outcome },
        'repaired a write that a stop of the service cut off',
      );
    }
    await rm(join(journal, name), { force: true });
  }
  await clearStaleObjectFiles(repo.commonDir);
  await clearStaleTemporaryFiles(gitdir);
}

async function finishOrUndo(dir: string, { gitdir, commonDir }: GitDirectory, intent: WriteIntent): Promise<string> {
  const branch = await readRef(commonDir, intent.ref);
  const happened =
    branch === intent.commit ||
    (branch !== undefined && branch !== intent.parent && (await descends(commonDir, branch, intent.commit)));
  if (happened) {
    // The commit is in the branch: every file and its index entry must say what it says.
    const index = await readIndexFile(gitdir);
    for (const file of intent.files) {
      const full = join(dir, file.path);
      const onDisk = await fileBlob(full);
      if (onDisk !== file.blob && onDisk === file.previousBlob) await putBlob(commonDir, gitdir, full, file.blob);
      if (
        index &&
        indexEntryOid(index, file.path) !== (file.blob ?? undefined) &&
        (await fileBlob(full)) === file.blob
      ) {
        await setIndexEntry(
          gitdir,
          file.path,
          file.blob === null ? null : { oid: file.blob, stats: await stat(full, { bigint: true }) },
        );
      }
    }
    return 'finished: the commit was in the branch';
  }
  // Not committed (and never answered as done): every file goes back to what it was.
  for (const file of intent.files) {
    const full = join(dir, file.path);
    if ((await fileBlob(full)) === file.blob && file.blob !== file.previousBlob)
      await putBlob(commonDir, gitdir, full, file.previousBlob);
  }
  return 'undone: the commit never reached the branch';
}

/** The blob id of the file's content; null when there is no regular file. */
async function fileBlob(full: string): Promise<string | null> {
  const info = await lstat(full).catch(() => undefined);
  if (!info?.isFile()) return null;
  return objectId('blob', await readFile(full));
}

async function putBlob(commonDir: string, gitdir: string, full: string, blob: string | null): Promise<void> {
  if (blob === null) {
    await rm(full, { force: true });
    return;
  }
  const { blob: content } = await git.readBlob({ fs, gitdir: commonDir, oid: blob });
  await replaceFile(gitdir, full, Buffer.from(content));
}

async function descends(commonDir: string, commit: string, ancestor: string): Promise<boolean> {
  try {
    return await git.isDescendent({ fs, gitdir: commonDir, oid: commit, ancestor, depth: -1 });
  } catch {
    return false;
  }
}

async function clearStaleTemporaryFiles(gitdir: string): Promise<void> {
  const dir = temporaryDir(gitdir);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const tag = new RegExp(`^(${TAG_PATTERN})\\.`).exec(name)?.[1];
    if (tag !== undefined && !(await isAlive(tag))) await rm(join(dir, name), { force: true });
  }
}
