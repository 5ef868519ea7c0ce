// The writing half of the local Git backend (./local-git-backend.ts): a change set's record
// files edited where they are (a new file starts with the schema hint its folder's files use)
// and committed as one commit on the checked-out branch (./working-tree-commit.ts), after any
// write a stopped process of this service left was finished or undone (./write-journal.ts).
// A write the branch moved under holds index.lock and the branch's lock for the rest of its
// turn (lockForWrite), so that no person's git command moves the branch under it again.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Collection } from '../../../domain/records.ts';
import { schemaHintLine } from '../../../domain/repo-layout/record-file-text.ts';
import { recordFilePath } from '../../../domain/repo-layout/record-path.ts';
import type { ChangeSet, WriteLock } from '../../backend.ts';
import { BaseMoved, StoreUnavailable } from '../../errors.ts';
import { type CommitAuthor, CommitBuilder } from '../../git/commit-builder.ts';
import { commitAuthor, commitMessage } from '../../git/commit-message.ts';
import { IndexFileCache } from '../../git/files/index-file-access.ts';
import type { LockOptions } from '../../git/files/lock-file.ts';
import { requireGitDirectory } from '../../git/git-directory.ts';
import { commitOfRevision, currentBranch } from '../../git/repository.ts';
import { recordFileThread } from '../../record-files/record-file-thread.ts';
import { SliceTimer } from '../../runner/event-loop.ts';
import type { PublishedRevision } from '../../runner/published-revision.ts';
import {
  commitFault,
  commitToWorkingTree,
  takeWriteLocks,
  type WorkingTreeChange,
  type WriteLocks,
} from './working-tree-commit.ts';
import type { WriteRepair } from './write-journal.ts';

export interface LocalGitWritesOptions {
  /** The working tree, resolved. */
  dir: string;
  log: Logger;
  author: CommitAuthor;
  /** GIT_LOCK_TIMEOUT: how long a write waits for a lock a person's git command holds. */
  lockTimeoutMs?: number;
  /** isomorphic-git's cache, shared with the backend's reads. */
  cache: object;
  repair: WriteRepair;
}

/**
 * What a commit of a change set made: the new commit on top of `parent`, the files it changed, where each record now
 * is.
 */
export interface LocalGitCommit {
  head: string;
  parent: string;
  changes: WorkingTreeChange[];
  sources: Map<string, string>;
}

export class LocalGitWrites {
  readonly #dir: string;
  readonly #log: Logger;
  readonly #builder: CommitBuilder;
  readonly #repair: WriteRepair;
  readonly #indexCache = new IndexFileCache();
  /** The locks a write holds across its attempts (lockForWrite), if any. */
  #writeLocks: WriteLocks | undefined;
  readonly #lockOptions: LockOptions;

  constructor(options: LocalGitWritesOptions) {
    this.#dir = options.dir;
    this.#log = options.log;
    this.#builder = new CommitBuilder({ dir: options.dir, author: options.author, cache: options.cache });
    this.#repair = options.repair;
    this.#lockOptions = {
      waitMs: options.lockTimeoutMs,
      onStaleLock: ({ lock, owner }) =>
        options.log.warn({ lock, owner }, 'removed a lock file a stopped process of this service left'),
    };
  }

  /** Holds index.lock and the branch's lock: a person's git command waits (or fails) until release. */
  async lockForWrite(): Promise<WriteLock> {
    const branch = await currentBranch(this.#dir);
    if (!branch) throw new StoreUnavailable('read_only', `${this.#dir} has no branch with a commit to add to`);
    let locks: WriteLocks;
    try {
      await this.#repair.beforeWrite();
      locks = await takeWriteLocks(requireGitDirectory(this.#dir), branch, this.#lockOptions);
    } catch (error) {
      throw commitFault(error, this.#log);
    }
    this.#writeLocks = locks;
    return {
      release: async () => {
        if (this.#writeLocks === locks) this.#writeLocks = undefined;
        await locks.release();
      },
    };
  }

  /**
   * The set's files edited and committed on top of the base's commit; the branch moved, the working tree and index with
   * it.
   */
  async commit(set: ChangeSet, base: PublishedRevision): Promise<LocalGitCommit> {
    let repaired: boolean;
    try {
      // Under the write lock, lockForWrite repaired already.
      repaired = !this.#writeLocks && (await this.#repair.beforeWrite());
    } catch (error) {
      throw commitFault(error, this.#log);
    }
    // The working tree the write was computed on changed with the repair: loaded again first.
    if (repaired) throw new BaseMoved('a write a stopped process of this service left was repaired');
    const parent = commitOfRevision(base.snapshot.revision);
    const branch = await currentBranch(this.#dir);
    if (!parent || !branch)
      throw new StoreUnavailable('read_only', `${this.#dir} has no branch with a commit to add to`);
    const changes: WorkingTreeChange[] = [];
    const sources = new Map<string, string>();
    // A set of 1,000 records is 1,000 files read and edited: polls are let in meanwhile.
    const slices = new SliceTimer();
    for (const { collection, id, record } of set.changes) {
      const path = base.sources.get(`${collection}/${id}`) ?? recordFilePath(collection, id);
      const previous = await readFile(join(this.#dir, path)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      const header = previous ? '' : await this.#schemaHint(collection, base.sources);
      const text =
        record === null ? null : await recordFileThread.edit(collection, record, previous?.toString('utf8'), header);
      changes.push({ path, text, previous });
      if (text !== null) sources.set(`${collection}/${id}`, path);
      await slices.turnIfDue();
    }
    let head: string;
    try {
      ({ commit: head } = await commitToWorkingTree(this.#dir, this.#builder, {
        branchRef: branch,
        parent,
        changes,
        message: commitMessage(set),
        author: commitAuthor(set),
        locks: this.#writeLocks,
        lockOptions: this.#lockOptions,
        indexCache: this.#indexCache,
      }));
    } catch (error) {
      throw commitFault(error, this.#log);
    }
    return { head, parent, changes, sources };
  }

  /** The schema hint line the other files of the folder start with, for a new file. */
  async #schemaHint(collection: Collection, sources: ReadonlyMap<string, string>): Promise<string> {
    for (const [key, path] of sources) {
      if (!key.startsWith(`${collection}/`)) continue;
      return schemaHintLine(await readFile(join(this.#dir, path), 'utf8').catch(() => ''));
    }
    return '';
  }
}
