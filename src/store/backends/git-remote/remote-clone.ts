// The clone of the remote in CONFIG_CLONE_DIR, as ./remote-git-backend.ts uses it: an existing
// clone reused (a clone of another remote refused), the branch cloned or fetched (objects only,
// so no working tree can be half-updated), and the local branch ref moved to the commit served,
// logged as git would log it, so that a restart finds that commit again at once, even while the
// Git host is down. Each sync is remembered, for /ready and the status page.
import * as fs from 'node:fs';
import { resolve } from 'node:path';
import git from 'isomorphic-git';
import type { Logger } from 'pino';
import { redactUrls } from '../../../shared/redact-url.ts';
import { StartupError } from '../../../shared/startup-error.ts';
import { describeError, type StoreFaultReason } from '../../errors.ts';
import type { CommitAuthor } from '../../git/commit-builder.ts';
import { clearStaleLocks, type LockOptions } from '../../git/files/lock-file.ts';
import { readRef, updateRef } from '../../git/files/ref-file.ts';
import type { ReflogEntry } from '../../git/files/reflog.ts';
import { type GitDirectory, GitDirectoryError, sharedGitDir } from '../../git/git-directory.ts';
import { checkedGitDirectory, UnsupportedRepositoryForm } from '../../git/repository-format.ts';
import type { GitCredentials } from './remote-auth.ts';
import { cloneRemote, fetchBranch, remoteFault, type RemoteTarget } from './remote-transport.ts';

export interface RemoteCloneOptions {
  url: string;
  /** Undefined: the remote's default branch. */
  branch: string | undefined;
  cloneDir: string;
  credentials: GitCredentials | undefined;
  log: Logger;
  /** Who moves the local branch, in its reflog. */
  author: CommitAuthor;
}

export interface SyncReport {
  at: string;
  ok: boolean;
  /** Why it failed, as a word (remote_unreachable, auth_failed...): shown to everyone. */
  reason?: StoreFaultReason;
  /** Why it failed, in words that may name the host: shown only with a token. */
  error?: string;
}

export class RemoteClone {
  readonly dir: string;
  readonly target: RemoteTarget;
  readonly #options: RemoteCloneOptions;
  #branch: string | undefined;
  #cloned = false;
  #lastSync: SyncReport | undefined;
  #lastGoodSync: string | undefined;
  readonly #lockOptions: LockOptions;

  constructor(options: RemoteCloneOptions) {
    this.#options = options;
    this.dir = resolve(options.cloneDir);
    this.#branch = options.branch;
    this.target = { url: options.url, dir: this.dir, credentials: options.credentials, cache: {} };
    this.#lockOptions = {
      onStaleLock: ({ lock, owner }) =>
        options.log.warn({ lock, owner }, 'removed a lock file a stopped process of this service left'),
    };
  }

  /** The branch followed: the one configured, else the remote's default once known. */
  get branch(): string | undefined {
    return this.#branch;
  }

  /** Whether the clone holds the branch (an interrupted clone does not). */
  get cloned(): boolean {
    return this.#cloned;
  }

  get lastSync(): SyncReport | undefined {
    return this.#lastSync;
  }

  /** When the last sync that reached the remote ended (ISO 8601). */
  get lastGoodSync(): string | undefined {
    return this.#lastGoodSync;
  }

  /** Reuses an existing clone of the same remote; a clone of another one is refused. */
  async open(): Promise<void> {
    let repo: GitDirectory | undefined;
    try {
      repo = checkedGitDirectory(this.dir);
    } catch (error) {
      if (error instanceof GitDirectoryError || error instanceof UnsupportedRepositoryForm)
        throw new StartupError(`CONFIG_CLONE_DIR ${this.dir}: ${error.message}`);
      throw error;
    }
    if (!repo) return;
    const origin: unknown = await git
      .getConfig({ fs, dir: this.dir, path: 'remote.origin.url' })
      .catch(() => undefined);
    if (typeof origin === 'string' && origin !== '' && redactUrls(origin) !== redactUrls(this.#options.url)) {
      throw new StartupError(
        `CONFIG_CLONE_DIR ${this.dir} holds a clone of ${redactUrls(origin)}, not of ` +
          `${redactUrls(this.#options.url)}; remove it or choose another CONFIG_CLONE_DIR`,
      );
    }
    this.#branch ??= (await git.currentBranch({ fs, dir: this.dir })) ?? undefined;
    // A branch lock a stopped process of this service left (killed while moving the branch).
    for (const { lock, owner } of await clearStaleLocks(repo.commonDir)) {
      this.#options.log.warn({ lock, owner }, 'removed a lock file a stopped process of this service left');
    }
    // A clone interrupted before its branch was written is cloned again.
    this.#cloned = this.#branch !== undefined && (await this.localHead()) !== undefined;
  }

  /** Clones the branch the first time, else fetches it; the head it has now. */
  async fetch(): Promise<string> {
    const at = new Date().toISOString();
    try {
      if (!this.#cloned) {
        this.#options.log.info(
          { url: redactUrls(this.#options.url), branch: this.#branch ?? '(remote default)', dir: this.dir },
          'cloning the config repo',
        );
        this.#branch = await cloneRemote(this.target, this.#branch);
        this.#cloned = true;
      }
      const head = await fetchBranch(this.target, this.#branch!);
      this.#lastSync = { at, ok: true };
      this.#lastGoodSync = at;
      return head;
    } catch (error) {
      const fault = remoteFault(error, this.target);
      this.#lastSync = { at, ok: false, reason: fault.reason, error: fault.message };
      this.#options.log.warn({ error: fault.message, url: redactUrls(this.#options.url) }, 'config repo sync failed');
      throw fault;
    }
  }

  /** The commit the local branch is at: the one served last. */
  async localHead(): Promise<string | undefined> {
    return this.#branch === undefined ? undefined : readRef(sharedGitDir(this.dir), `refs/heads/${this.#branch}`);
  }

  /** Moves the local branch to `commit`, which the remote has, with `log` in its reflog. */
  async moveLocalBranch(commit: string, log: ReflogEntry): Promise<void> {
    const ref = `refs/heads/${this.#branch}`;
    await updateRef(sharedGitDir(this.dir), ref, commit, await this.localHead(), log, this.#lockOptions);
  }

  /** Moves the local branch to the remote's commit served now, logged as `git pull` or `git reset` would log it. */
  async followRemote(commit: string): Promise<void> {
    const local = await this.localHead();
    const forward = local === undefined || (await this.descends(commit, local));
    // A rewritten (force-pushed) remote branch is followed too: a reset, in git's words.
    const message = forward ? 'pull: Fast-forward' : `reset: moving to ${commit}`;
    await this.moveLocalBranch(commit, { committer: this.#options.author, message });
  }

  /** Whether `commit` has `ancestor` in its history; false when that cannot be told. */
  async descends(commit: string, ancestor: string): Promise<boolean> {
    if (ancestor === commit) return true;
    try {
      return await git.isDescendent({ fs, dir: this.dir, oid: commit, ancestor, depth: -1, cache: this.target.cache });
    } catch (error) {
      this.#options.log.debug({ error: describeError(error) }, 'cannot tell whether the branch was rewritten');
      return false;
    }
  }
}
