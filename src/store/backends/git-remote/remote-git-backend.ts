// STORE_BACKEND=git with CONFIG_REPO an http(s) URL: the branch is cloned into
// CONFIG_CLONE_DIR (objects only: commits are read from the object store, so no working tree
// can be half-updated) and fetched every CONFIG_SYNC_INTERVAL, or at once when the push
// webhook calls. The local branch ref follows the commit served, so a restart finds it again
// at once, even while the Git host is down.
//
// A write (or a change set: one commit of all its files) is committed as objects on top of
// the served commit and pushed; only once the remote has it does the local branch move. A push refused because the remote branch moved
// (a merged pull request, another instance's write) is reported as BaseMoved: the runner
// fetches, applies the write again on the new head and pushes again. Each commit names the
// instance that made it (a Gitops-Writer trailer): a push overtaken by another instance's
// commit is how a second writer on the branch is noticed (./other-writers.ts).
import * as fs from 'node:fs';
import { resolve } from 'node:path';
import git from 'isomorphic-git';
import type { Logger } from 'pino';
import { recordFilePath } from '../../../domain/repo-layout/record-path.ts';
import { StartupError } from '../../../shared/startup-error.ts';
import type { Backend, BackendDescription, ChangeSet, LoadedRevision, CommitOptions, CommitResult, KnownRevisions, LoadResult, RevisionFacts } from '../../backend.ts';
import type { PublishedRevision } from '../../runner/published-revision.ts';
import { describeError, type StoreFaultReason } from '../../errors.ts';
import { type CommitAuthor, CommitBuilder, type FileContent } from '../../git/commit-builder.ts';
import { commitFileEntries, commitFileTexts } from '../../git/commit-files.ts';
import { commitAuthor, commitMessage, ownWriterId } from '../../git/commit-message.ts';
import { ObjectReader } from '../../git/files/object-reader.ts';
import { clearStaleLocks, type LockOptions } from '../../git/files/lock-file.ts';
import { readRef, updateRef } from '../../git/files/ref-file.ts';
import { commitReflogMessage, type ReflogEntry } from '../../git/files/reflog.ts';
import { type GitDirectory, GitDirectoryError, sharedGitDir } from '../../git/git-directory.ts';
import { commitAllowsShrink, commitFacts, firstParents, isOlderCommit } from '../../git/history.ts';
import { checkedGitDirectory, UnsupportedRepositoryForm } from '../../git/repository-format.ts';
import { RecordFileLoader } from '../../record-files/record-file-loader.ts';
import { RetryPolicy } from '../../../shared/retry.ts';
import { redactUrls } from '../../../shared/redact-url.ts';
import type { GitCredentials } from './remote-auth.ts';
import { OtherWriters } from './other-writers.ts';
import { WrittenFileTexts } from './written-file-texts.ts';
import { BranchMoved, cloneRemote, fetchBranch, pushCommit, remoteBranchHead, remoteFault, type RemoteTarget } from './remote-transport.ts';

export interface RemoteGitOptions {
  url: string;
  /** Undefined: the remote's default branch. */
  branch: string | undefined;
  cloneDir: string;
  syncIntervalMs: number;
  credentials: GitCredentials | undefined;
  log: Logger;
  author: CommitAuthor;
  /** MAX_RECORD_BYTES */
  maxRecordBytes: number;
}

interface SyncReport {
  at: string;
  ok: boolean;
  /** Why it failed, as a word (remote_unreachable, auth_failed...): shown to everyone. */
  reason?: StoreFaultReason;
  /** Why it failed, in words that may name the host: shown only with a token. */
  error?: string;
}

/** The first retry after a failed sync; doubled up to the sync interval. */
const FIRST_RETRY_MS = 500;

export class RemoteGitBackend implements Backend {
  readonly dir: string;
  readonly #options: RemoteGitOptions;
  readonly #target: RemoteTarget;
  readonly #loader = new RecordFileLoader();
  readonly #builder: CommitBuilder;
  #branch: string | undefined;
  #cloned = false;
  #lastSync: SyncReport | undefined;
  #lastGoodSync: string | undefined;
  readonly #syncRetry: RetryPolicy;
  /** How this instance's commits name it, and the other instances seen pushing to the branch. */
  readonly #writer = ownWriterId();
  readonly #otherWriters: OtherWriters;
  /** The remote's head a refused push found (fetched, objects and all), until the next load. */
  #movedTo: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #onChange: ((reason: string) => void) | undefined;
  readonly #lockOptions: LockOptions;

  constructor(options: RemoteGitOptions) {
    this.#options = options;
    this.dir = resolve(options.cloneDir);
    this.#branch = options.branch;
    this.#target = { url: options.url, dir: this.dir, credentials: options.credentials, cache: {} };
    this.#builder = new CommitBuilder({ dir: this.dir, author: options.author, cache: this.#target.cache });
    this.#syncRetry = new RetryPolicy({ firstMs: Math.min(FIRST_RETRY_MS, options.syncIntervalMs), maxMs: options.syncIntervalMs });
    this.#otherWriters = new OtherWriters(this.#writer, options.log);
    this.#lockOptions = { onStaleLock: ({ lock, owner }) => options.log.warn({ lock, owner }, 'removed a lock file a stopped process of this service left') };
  }

  /** Reuses an existing clone of the same remote; a clone of another one is refused. */
  async open(): Promise<void> {
    let repo: GitDirectory | undefined;
    try {
      repo = checkedGitDirectory(this.dir);
    } catch (error) {
      if (error instanceof GitDirectoryError || error instanceof UnsupportedRepositoryForm) throw new StartupError(`CONFIG_CLONE_DIR ${this.dir}: ${error.message}`);
      throw error;
    }
    if (!repo) return;
    const origin: unknown = await git.getConfig({ fs, dir: this.dir, path: 'remote.origin.url' }).catch(() => undefined);
    if (typeof origin === 'string' && origin !== '' && redactUrls(origin) !== redactUrls(this.#options.url)) {
      throw new StartupError(
        `CONFIG_CLONE_DIR ${this.dir} holds a clone of ${redactUrls(origin)}, not of ${redactUrls(this.#options.url)}; remove it or choose another CONFIG_CLONE_DIR`,
      );
    }
    this.#branch ??= (await git.currentBranch({ fs, dir: this.dir })) ?? undefined;
    // A branch lock a stopped process of this service left (killed while moving the branch).
    for (const { lock, owner } of await clearStaleLocks(repo.commonDir)) {
      this.#options.log.warn({ lock, owner }, 'removed a lock file a stopped process of this service left');
    }
    // A clone interrupted before its branch was written is cloned again.
    this.#cloned = this.#branch !== undefined && (await this.#localHead()) !== undefined;
  }

  async load(known: KnownRevisions): Promise<LoadResult> {
    const movedTo = this.#movedTo;
    this.#movedTo = undefined;
    let head: string;
    try {
      // A write applying itself again at once: the fetch its refused push made is as new as
      // a fetch now would be, less one round trip, which decides whether it lands before the
      // other writer's next push.
      head = known.lookedJustNow && movedTo !== undefined ? movedTo : await this.#fetch();
    } catch (error) {
      const local = this.#cloned ? await this.#localHead() : undefined;
      if (local === undefined) throw error;
      // The host is away: serve what this clone has; /ready shows the failing sync.
      head = local;
    } finally {
      this.#scheduleSync();
    }
    if (known.served !== undefined && known.served !== (await this.#localHead())) await this.#followRemote(known.served);
    if (head === known.served || head === known.refused) return { unchanged: head };
    if (known.served !== undefined && !(await this.#descends(head, known.served))) {
      this.#options.log.warn({ previous: known.served, commit: head, branch: this.#branch }, 'the branch was rewritten (force-pushed); following it');
    }
    return { loaded: await this.#loadRevision(this.#loader, head) };
  }

  /** The branch's commits before `revision`, oldest first. */
  async *ancestors(revision: string, limit: number): AsyncIterable<LoadedRevision> {
    // The same loader as the head's: a file that did not change between two commits is the
    // same record object in both, which keeps building and judging cheap.
    const loader = this.#loader;
    const reader = new ObjectReader(this.dir, this.#target.cache);
    const commits = await firstParents(this.dir, revision, limit, this.#target.cache, reader);
    for (const commit of commits.reverse()) yield this.#loadRevision(loader, commit, reader);
  }

  async #loadRevision(loader: RecordFileLoader, commit: string, reader = new ObjectReader(this.dir, this.#target.cache)): Promise<LoadedRevision> {
    const { cache } = this.#target;
    const entries = await commitFileEntries(this.dir, commit, cache, reader, undefined, this.#options.maxRecordBytes);
    return { ...(await loader.load(entries, commit)), allowShrink: await commitAllowsShrink(this.dir, commit, cache, reader) };
  }

  isOlder(revision: string, than: string): Promise<boolean> {
    return isOlderCommit(this.dir, revision, than, this.#target.cache);
  }

  /** The remote branch's head, asked for (nothing fetched: the next load fetches it). */
  async newestRevision(): Promise<string | undefined> {
    return this.#branch === undefined ? undefined : remoteBranchHead(this.#target, this.#branch);
  }

  revisionFacts(revision: string): Promise<RevisionFacts | undefined> {
    return commitFacts(this.dir, revision, this.#target.cache, new ObjectReader(this.dir, this.#target.cache));
  }

  /** A commit's files, from the clone's objects. */
  sourceTexts(revision: string, files: readonly string[]): Promise<Map<string, string>> {
    return commitFileTexts(this.dir, revision, files, this.#target.cache, this.#options.maxRecordBytes);
  }

  watch(onChange: (reason: string) => void): void {
    this.#onChange = onChange;
    this.#scheduleSync();
  }

  async commit(set: ChangeSet, base: PublishedRevision, options: CommitOptions = {}): Promise<CommitResult> {
    const parent = base.snapshot.revision;
    const files: FileContent[] = [];
    const sources = new Map<string, string>();
    const texts = new WrittenFileTexts(this.dir, parent, this.#target.cache);
    for (const { collection, id, record } of set.changes) {
      const path = base.sources.get(`${collection}/${id}`) ?? recordFilePath(collection, id);
      files.push({ path, text: record === null ? null : await texts.of(path, collection, record) });
      if (record !== null) sources.set(`${collection}/${id}`, path);
    }
    const { commit, written } = await this.#builder.build(files, commitMessage(set, this.#writer), parent, commitAuthor(set));
    await written;
    try {
      await pushCommit(this.#target, this.#branch!, commit, parent, {
        deadline: options.deadline,
        onRetry: (why) => this.#options.log.warn({ commit, branch: this.#branch, why }, 'the Git remote did not take the push; trying again'),
      });
    } catch (error) {
      if (error instanceof BranchMoved) {
        this.#movedTo = error.head;
        await this.#otherWriters.noteMove(this.#target, this.#branch!, error.head, parent);
      }
      throw error;
    }
    // The remote has it: the branch moves and the change is served.
    await this.#moveLocalBranch(commit, { committer: this.#options.author, message: commitReflogMessage(commitMessage(set)) });
    return { revision: commit, sources };
  }

  describe(): BackendDescription {
    const lastSync = this.#lastSync;
    return {
      details: {
        branch: this.#branch ?? null,
        last_sync: lastSync ? { at: lastSync.at, ok: lastSync.ok, ...(lastSync.reason ? { reason: lastSync.reason } : {}) } : null,
        last_successful_sync: this.#lastGoodSync ?? null,
        sync_interval_ms: this.#options.syncIntervalMs,
        other_writers_seen: this.#otherWriters.count,
      },
      internal: {
        config_repo: redactUrls(this.#options.url),
        clone_dir: this.dir,
        last_sync: lastSync ?? null,
      },
      followsRemote: true,
      pushBranch: this.#branch,
      sync: { intervalMs: this.#options.syncIntervalMs, lastSuccessAt: this.#lastGoodSync === undefined ? undefined : new Date(this.#lastGoodSync) },
    };
  }

  async close(): Promise<void> {
    this.#onChange = undefined;
    clearTimeout(this.#timer);
  }

  async #fetch(): Promise<string> {
    const at = new Date().toISOString();
    try {
      if (!this.#cloned) {
        this.#options.log.info({ url: redactUrls(this.#options.url), branch: this.#branch ?? '(remote default)', dir: this.dir }, 'cloning the config repo');
        this.#branch = await cloneRemote(this.#target, this.#branch);
        this.#cloned = true;
      }
      const head = await fetchBranch(this.#target, this.#branch!);
      this.#lastSync = { at, ok: true };
      this.#lastGoodSync = at;
      return head;
    } catch (error) {
      const fault = remoteFault(error, this.#target);
      this.#lastSync = { at, ok: false, reason: fault.reason, error: fault.message };
      this.#options.log.warn({ error: fault.message, url: redactUrls(this.#options.url) }, 'config repo sync failed');
      throw fault;
    }
  }

  /** The next sync: after the interval, or sooner (with a growing pause) after a failed one. */
  #scheduleSync(): void {
    clearTimeout(this.#timer);
    if (!this.#onChange) return;
    const failed = this.#lastSync?.ok === false;
    if (!failed) this.#syncRetry.reset();
    const delay = failed ? (this.#syncRetry.next() ?? this.#options.syncIntervalMs) : this.#options.syncIntervalMs;
    this.#timer = setTimeout(() => this.#onChange?.(failed ? 'retry' : 'interval'), delay);
    this.#timer.unref();
  }

  async #localHead(): Promise<string | undefined> {
    return this.#branch === undefined ? undefined : readRef(sharedGitDir(this.dir), `refs/heads/${this.#branch}`);
  }

  async #moveLocalBranch(commit: string, log: ReflogEntry): Promise<void> {
    const ref = `refs/heads/${this.#branch}`;
    await updateRef(sharedGitDir(this.dir), ref, commit, await this.#localHead(), log, this.#lockOptions);
  }

  /** Moves the local branch to the remote's commit served now, logged as `git pull` or `git reset` would log it. */
  async #followRemote(commit: string): Promise<void> {
    const local = await this.#localHead();
    const forward = local === undefined || (await this.#descends(commit, local));
    // A rewritten (force-pushed) remote branch is followed too: a reset, in git's words.
    const message = forward ? 'pull: Fast-forward' : `reset: moving to ${commit}`;
    await this.#moveLocalBranch(commit, { committer: this.#options.author, message });
  }

  async #descends(commit: string, ancestor: string): Promise<boolean> {
    if (ancestor === commit) return true;
    try {
      return await git.isDescendent({ fs, dir: this.dir, oid: commit, ancestor, depth: -1, cache: this.#target.cache });
    } catch (error) {
      this.#options.log.debug({ error: describeError(error) }, 'cannot tell whether the branch was rewritten');
      return false;
    }
  }
}
