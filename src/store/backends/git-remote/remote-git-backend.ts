// STORE_BACKEND=git with CONFIG_REPO an http(s) URL: the branch is cloned into
// CONFIG_CLONE_DIR (objects only: commits are read from the object store, so no working tree
// can be half-updated) and fetched every CONFIG_SYNC_INTERVAL, or at once when the push
// webhook calls. The local branch ref follows the commit served (./remote-clone.ts), so a restart finds it again
// at once, even while the Git host is down.
//
// A write (or a change set: one commit of all its files) is committed as objects on top of
// the served commit and pushed; only once the remote has it does the local branch move. A push refused because the
// remote branch moved
// (a merged pull request, another instance's write) is reported as BaseMoved: the runner
// fetches, applies the write again on the new head and pushes again. Each commit names the
// instance that made it (a Gitops-Writer trailer): a push overtaken by another instance's
// commit is how a second writer on the branch is noticed (./other-writers.ts).
import type { Logger } from 'pino';
import { recordFilePath } from '../../../domain/repo-layout/record-path.ts';
import type {
  Backend,
  BackendDescription,
  ChangeSet,
  LoadedRevision,
  CommitOptions,
  CommitResult,
  KnownRevisions,
  LoadResult,
  RevisionFacts,
} from '../../backend.ts';
import type { PublishedRevision } from '../../runner/published-revision.ts';
import { type CommitAuthor, CommitBuilder, type FileContent } from '../../git/commit-builder.ts';
import { commitFileEntries, commitFileTexts } from '../../git/commit-files.ts';
import { commitAuthor, commitMessage, ownWriterId } from '../../git/commit-message.ts';
import { ObjectReader } from '../../git/files/object-reader.ts';
import { commitReflogMessage } from '../../git/files/reflog.ts';
import { commitAllowsShrink, commitFacts, firstParents, isOlderCommit } from '../../git/history.ts';
import { RecordFileLoader } from '../../record-files/record-file-loader.ts';
import { RetryPolicy } from '../../../shared/retry.ts';
import { redactUrls } from '../../../shared/redact-url.ts';
import type { GitCredentials } from './remote-auth.ts';
import { OtherWriters } from './other-writers.ts';
import { WrittenFileTexts } from './written-file-texts.ts';
import { RemoteClone } from './remote-clone.ts';
import { BranchMoved, pushCommit, remoteBranchHead, type RemoteTarget } from './remote-transport.ts';

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

/** The first retry after a failed sync; doubled up to the sync interval. */
const FIRST_RETRY_MS = 500;

export class RemoteGitBackend implements Backend {
  readonly dir: string;
  readonly #options: RemoteGitOptions;
  readonly #clone: RemoteClone;
  readonly #target: RemoteTarget;
  readonly #loader = new RecordFileLoader();
  readonly #builder: CommitBuilder;
  readonly #syncRetry: RetryPolicy;
  /** How this instance's commits name it, and the other instances seen pushing to the branch. */
  readonly #writer = ownWriterId();
  readonly #otherWriters: OtherWriters;
  /** The remote's head a refused push found (fetched, objects and all), until the next load. */
  #movedTo: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #onChange: ((reason: string) => void) | undefined;

  constructor(options: RemoteGitOptions) {
    this.#options = options;
    this.#clone = new RemoteClone(options);
    this.dir = this.#clone.dir;
    this.#target = this.#clone.target;
    this.#builder = new CommitBuilder({ dir: this.dir, author: options.author, cache: this.#target.cache });
    this.#syncRetry = new RetryPolicy({
      firstMs: Math.min(FIRST_RETRY_MS, options.syncIntervalMs),
      maxMs: options.syncIntervalMs,
    });
    this.#otherWriters = new OtherWriters(this.#writer, options.log);
  }

  /** Reuses an existing clone of the same remote; a clone of another one is refused. */
  open(): Promise<void> {
    return this.#clone.open();
  }

  async load(known: KnownRevisions): Promise<LoadResult> {
    const movedTo = this.#movedTo;
    this.#movedTo = undefined;
    let head: string;
    try {
      // A write applying itself again at once: the fetch its refused push made is as new as
      // a fetch now would be, less one round trip, which decides whether it lands before the
      // other writer's next push.
      head = known.lookedJustNow && movedTo !== undefined ? movedTo : await this.#clone.fetch();
    } catch (error) {
      const local = this.#clone.cloned ? await this.#clone.localHead() : undefined;
      if (local === undefined) throw error;
      // The host is away: serve what this clone has; /ready shows the failing sync.
      head = local;
    } finally {
      this.#scheduleSync();
    }
    if (known.served !== undefined && known.served !== (await this.#clone.localHead()))
      await this.#clone.followRemote(known.served);
    if (head === known.served || head === known.refused) return { unchanged: head };
    if (known.served !== undefined && !(await this.#clone.descends(head, known.served))) {
      this.#options.log.warn(
        { previous: known.served, commit: head, branch: this.#clone.branch },
        'the branch was rewritten (force-pushed); following it',
      );
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

  async #loadRevision(
    loader: RecordFileLoader,
    commit: string,
    reader = new ObjectReader(this.dir, this.#target.cache),
  ): Promise<LoadedRevision> {
    const { cache } = this.#target;
    const entries = await commitFileEntries(this.dir, commit, cache, reader, undefined, this.#options.maxRecordBytes);
    return {
      ...(await loader.load(entries, commit)),
      allowShrink: await commitAllowsShrink(this.dir, commit, cache, reader),
    };
  }

  isOlder(revision: string, than: string): Promise<boolean> {
    return isOlderCommit(this.dir, revision, than, this.#target.cache);
  }

  /** The remote branch's head, asked for (nothing fetched: the next load fetches it). */
  async newestRevision(): Promise<string | undefined> {
    const branch = this.#clone.branch;
    return branch === undefined ? undefined : remoteBranchHead(this.#target, branch);
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
    const { commit, written } = await this.#builder.build(
      files,
      commitMessage(set, this.#writer),
      parent,
      commitAuthor(set),
    );
    await written;
    try {
      await pushCommit(this.#target, this.#clone.branch!, commit, parent, {
        deadline: options.deadline,
        onRetry: (why) =>
          this.#options.log.warn(
            { commit, branch: this.#clone.branch, why },
            'the Git remote did not take the push; trying again',
          ),
      });
    } catch (error) {
      if (error instanceof BranchMoved) {
        this.#movedTo = error.head;
        await this.#otherWriters.noteMove(this.#target, this.#clone.branch!, error.head, parent);
      }
      throw error;
    }
    // The remote has it: the branch moves and the change is served.
    await this.#clone.moveLocalBranch(commit, {
      committer: this.#options.author,
      message: commitReflogMessage(commitMessage(set)),
    });
    return { revision: commit, sources };
  }

  describe(): BackendDescription {
    const { branch, lastSync, lastGoodSync } = this.#clone;
    return {
      details: {
        branch: branch ?? null,
        last_sync: lastSync
          ? { at: lastSync.at, ok: lastSync.ok, ...(lastSync.reason ? { reason: lastSync.reason } : {}) }
          : null,
        last_successful_sync: lastGoodSync ?? null,
        sync_interval_ms: this.#options.syncIntervalMs,
        other_writers_seen: this.#otherWriters.count,
      },
      internal: {
        config_repo: redactUrls(this.#options.url),
        clone_dir: this.dir,
        last_sync: lastSync ?? null,
      },
      followsRemote: true,
      pushBranch: branch,
      sync: {
        intervalMs: this.#options.syncIntervalMs,
        lastSuccessAt: lastGoodSync === undefined ? undefined : new Date(lastGoodSync),
      },
    };
  }

  async close(): Promise<void> {
    this.#onChange = undefined;
    clearTimeout(this.#timer);
  }

  /** The next sync: after the interval, or sooner (with a growing pause) after a failed one. */
  #scheduleSync(): void {
    clearTimeout(this.#timer);
    if (!this.#onChange) return;
    const failed = this.#clone.lastSync?.ok === false;
    if (!failed) this.#syncRetry.reset();
    const delay = failed ? (this.#syncRetry.next() ?? this.#options.syncIntervalMs) : this.#options.syncIntervalMs;
    this.#timer = setTimeout(() => this.#onChange?.(failed ? 'retry' : 'interval'), delay);
    this.#timer.unref();
  }
}
