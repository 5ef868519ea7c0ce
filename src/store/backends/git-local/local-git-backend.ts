// STORE_BACKEND=git on a local directory: the record files of the working tree are the
// store, and every change to them (an editor saving, a `git pull`, a commit) is noticed
// within a second. In crud mode each REST write becomes one commit of the record's file, and
// each change set one commit of all its records' files.
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type {
  Backend,
  BackendDescription,
  Between,
  ChangeSet,
  LoadedRevision,
  CommitResult,
  KnownRevisions,
  LoadResult,
  RevisionFacts,
  WriteLock,
} from '../../backend.ts';
import type { PublishedRevision } from '../../runner/published-revision.ts';
import { describeError, StoreUnavailable } from '../../errors.ts';
import type { CommitAuthor } from '../../git/commit-builder.ts';
import { changedBetween, commitFileEntries, commitFileTexts, type TreeBlob } from '../../git/commit-files.ts';
import { ObjectReader } from '../../git/files/object-reader.ts';
import { commitAllowsShrink, commitFacts, firstParents, isOlderCommit } from '../../git/history.ts';
import { commitOfRevision, headCommit, isGitRepository, workingTreeRevision } from '../../git/repository.ts';
import { byPath, gitBlobId, type RecordFileEntry } from '../../record-files/record-file-entry.ts';
import { RecordFileLoader } from '../../record-files/record-file-loader.ts';
import { WorkingTreeReader } from '../../record-files/working-tree.ts';
import { SliceTimer, yieldToEventLoop } from '../../runner/event-loop.ts';
import { ChangeWatcher, type SeenState } from './change-watcher.ts';
import { checkAtStart } from './start-checks.ts';
import { LocalGitWrites } from './local-git-writes.ts';
import { WriteRepair } from './write-journal.ts';

/** How often every record file's stat is looked at, for changes the watcher missed. */
const RESCAN_MS = 60_000;

export interface LocalGitOptions {
  dir: string;
  log: Logger;
  /** Crud mode: the directory must then be a Git repository on a branch with a commit. */
  writable: boolean;
  author: CommitAuthor;
  /** MAX_RECORD_BYTES */
  maxRecordBytes: number;
  /** GIT_LOCK_TIMEOUT: how long a write waits for a lock a person's git command holds. */
  lockTimeoutMs?: number;
}

export class LocalGitBackend implements Backend {
  readonly dir: string;
  readonly #options: LocalGitOptions;
  readonly #gitCache = {};
  readonly #loader = new RecordFileLoader();
  readonly #watcher: ChangeWatcher;
  /** What the last load or commit saw; the watcher compares changes with it. */
  #seen: { head: string | undefined; files: Map<string, string>; revision?: string } | undefined;
  readonly #reader: WorkingTreeReader;
  /** Record files changed since the last load (from the watcher), or "all": read every one. */
  #pending: Set<string> | 'all' = 'all';
  #rescan: NodeJS.Timeout | undefined;
  /** The record files of the HEAD commit, kept while HEAD stays. */
  readonly #headFiles: { commit?: string; blobs?: readonly TreeBlob[] } = {};
  readonly #repair: WriteRepair;
  readonly #writes: LocalGitWrites;

  constructor(options: LocalGitOptions) {
    this.#options = options;
    this.dir = resolve(options.dir);
    this.#watcher = new ChangeWatcher(this.dir, options.log, options.maxRecordBytes);
    this.#reader = new WorkingTreeReader(this.dir, options.maxRecordBytes);
    this.#repair = new WriteRepair(this.dir, options.log);
    const { log, author, lockTimeoutMs } = options;
    this.#writes = new LocalGitWrites({
      dir: this.dir,
      log,
      author,
      lockTimeoutMs,
      cache: this.#gitCache,
      repair: this.#repair,
    });
  }

  async open(): Promise<void> {
    await checkAtStart(this.dir, this.#options.writable, this.#repair, this.#options.log);
  }

  async load(known: KnownRevisions): Promise<LoadResult> {
    // The files the watcher named since the last load are read again; everything, the first
    // time and after a failed load.
    const pending = this.#pending;
    this.#pending = new Set();
    try {
      return await this.#load(known, pending);
    } catch (error) {
      this.#pending = 'all';
      throw error;
    }
  }

  async #load(known: KnownRevisions, pending: Set<string> | 'all'): Promise<LoadResult> {
    const reader = new ObjectReader(this.dir, this.#gitCache);
    // A moved HEAD (a commit, a pull, a checkout) changed the files that differ between the
    // two commits: they are read again even before the watcher names them.
    const before = this.#seen?.head;
    const now = await headCommit(this.dir);
    if (pending !== 'all' && before !== undefined && now !== undefined && now !== before) {
      for (const path of await changedBetween(this.dir, before, now, this.#gitCache, reader)) pending.add(path);
    }
    const entries = await (pending === 'all' ? this.#reader.readAll() : this.#reader.readChanged(pending)).catch(
      (error: unknown) => {
        throw new StoreUnavailable('io', `cannot read ${this.dir}: ${describeError(error)}`);
      },
    );
    const revision = await workingTreeRevision(this.dir, entries, this.#gitCache, reader, this.#headFiles);
    const head = commitOfRevision(revision);
    this.#seen = { head, files: await this.#filesById(entries, pending), revision };
    // The work of a load is cut into steps with a turn of the event loop between them, so
    // that polls are answered while a large fleet is being reloaded.
    await yieldToEventLoop();
    if (revision === known.served || revision === known.refused) return { unchanged: revision };
    const loaded = await this.#loader.load(entries, revision);
    await yieldToEventLoop();
    return {
      loaded: {
        ...loaded,
        allowShrink: head !== undefined && (await commitAllowsShrink(this.dir, head, this.#gitCache, reader)),
      },
    };
  }

  /**
   * The files' blob ids by path, kept for the next load: the last load's map with the paths read
   * again set anew, or built in slices after a full look (100,000 entries take tens of milliseconds).
   */
  async #filesById(entries: readonly RecordFileEntry[], pending: Set<string> | 'all'): Promise<Map<string, string>> {
    const kept = this.#seen?.files;
    if (kept && pending !== 'all') {
      for (const path of pending) {
        const blobId = this.#reader.blobIdOf(path);
        if (blobId === undefined) kept.delete(path);
        else kept.set(path, blobId);
      }
      return kept;
    }
    const files = new Map<string, string>();
    const slices = new SliceTimer();
    for (const e of entries) {
      files.set(e.path, e.blobId);
      if (files.size % 1024 === 0) await slices.turnIfDue();
    }
    return files;
  }

  /** The branch's commits before the working tree (HEAD too when the tree holds edits of its own), oldest first. */
  async *ancestors(revision: string, limit: number): AsyncIterable<LoadedRevision> {
    const head = commitOfRevision(revision);
    if (head === undefined) return;
    const reader = new ObjectReader(this.dir, this.#gitCache);
    const before = (n: number) => firstParents(this.dir, head, n, this.#gitCache, reader);
    const commits = revision === head ? await before(limit) : [head, ...(await before(limit - 1))];
    // The same loader as the newest revision's: a file that did not change between two
    // commits is the same record object in both, which keeps building and judging cheap.
    const loader = this.#loader;
    for (const commit of commits.reverse()) {
      const entries = await commitFileEntries(
        this.dir,
        commit,
        this.#gitCache,
        reader,
        undefined,
        this.#options.maxRecordBytes,
      );
      yield {
        ...(await loader.load(entries, commit)),
        allowShrink: await commitAllowsShrink(this.dir, commit, this.#gitCache, reader),
      };
    }
  }

  /** Uncommitted edits have no order: only a clean commit is known as older. */
  async isOlder(revision: string, than: string): Promise<boolean> {
    if (revision === than) return true;
    const servedCommit = commitOfRevision(than);
    if (servedCommit === undefined || commitOfRevision(revision) !== revision) return false;
    return isOlderCommit(this.dir, revision, servedCommit, this.#gitCache);
  }

  /** HEAD's commit: what another replica of this repository could have published (edits are nobody else's). */
  newestRevision(): Promise<string | undefined> {
    return headCommit(this.dir);
  }

  /** A commit's author, time and message; nothing for uncommitted edits. */
  async revisionFacts(revision: string): Promise<RevisionFacts | undefined> {
    if (commitOfRevision(revision) !== revision) return undefined;
    return commitFacts(this.dir, revision, this.#gitCache, new ObjectReader(this.dir, this.#gitCache));
  }

  /**
   * A commit's files from the object store; a working tree's from disk, each while it is the file that revision was
   * loaded with.
   */
  async sourceTexts(revision: string, files: readonly string[]): Promise<Map<string, string>> {
    if (commitOfRevision(revision) === revision)
      return commitFileTexts(this.dir, revision, files, this.#gitCache, this.#options.maxRecordBytes);
    const seen = this.#seen?.revision === revision ? this.#seen.files : new Map<string, string>();
    const texts = await Promise.all(
      files.map(
        async (file) =>
          [file, seen.has(file) ? await this.#reader.textIfSame(file, seen.get(file)!) : undefined] as const,
      ),
    );
    return new Map(texts.filter((entry): entry is [string, string] => entry[1] !== undefined));
  }

  /**
   * The watcher's checks and the periodic look run `between` the runner's loads and commits, so none sees half a write.
   */
  watch(onChange: (reason: string) => void, between: Between): void {
    const check = (test: (seen: SeenState | undefined) => Promise<boolean>) => between(() => test(this.#seen));
    const note = (path: string) => {
      if (this.#pending === 'all') return;
      if (path === '*') this.#pending = 'all';
      else this.#pending.add(path);
    };
    // A look at every file's stat: for what changed before the watcher was ready (it starts after
    // the first load: a file, or HEAD), and then periodically, for what a file watcher can miss (an
    // overflowing queue on a mass change).
    const look = (reason: string, head: boolean) =>
      between(async () => {
        const changed = await this.#reader.changedPaths();
        const moved = head && (await headCommit(this.dir)) !== this.#seen?.head;
        return { changed, moved };
      })
        .then(({ changed, moved }) => {
          if (changed.length === 0 && !moved) return;
          for (const path of changed) note(path);
          onChange(reason);
        })
        .catch((error: unknown) => this.#options.log.warn({ err: error }, 'the look at the config repo failed'));
    void this.#watcher
      .start(check, () => onChange('files changed'), note)
      .then(() => look('changed while the watcher started', true));
    this.#rescan = setInterval(() => void look('a periodic look found changed files', false), RESCAN_MS);
    this.#rescan.unref();
  }

  /** In the runner's queue, like every load: one commit at a time, and no watcher's check during one. */
  commit(set: ChangeSet, base: PublishedRevision): Promise<CommitResult> {
    return this.#commit(set, base);
  }

  /** Holds index.lock and the branch's lock: a person's git command waits (or fails) until release. */
  lockForWrite(): Promise<WriteLock> {
    return this.#writes.lockForWrite();
  }

  async #commit(set: ChangeSet, base: PublishedRevision): Promise<CommitResult> {
    const { head, parent, changes, sources } = await this.#writes.commit(set, base);
    // What this backend has seen is its own, and only changed in the runner's queue: updated in place
    // (a fleet's folder is 10,000 entries, not worth a copy per write).
    const files = this.#seen?.files ?? new Map<string, string>();
    for (const { path, text } of changes) {
      if (text === null) files.delete(path);
      else files.set(path, gitBlobId(Buffer.from(text)));
      // The next load reads the file again rather than trust what the watcher may not have said yet.
      if (this.#pending !== 'all') this.#pending.add(path);
    }
    this.#seen = { head, files };
    // Uncommitted edits of other files stay uncommitted, and the revision says so, exactly as
    // the next load would.
    const clean = base.snapshot.revision === parent;
    const revision = clean
      ? head
      : await workingTreeRevision(
          this.dir,
          [...files].map(([p, blobId]) => ({ path: p, blobId })).sort(byPath),
          this.#gitCache,
        );
    this.#seen.revision = revision;
    return { revision, sources };
  }

  describe(): BackendDescription {
    return {
      details: { git_repository: isGitRepository(this.dir) },
      internal: { config_repo: this.dir },
      followsRemote: false,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.#rescan);
    await this.#watcher.close();
  }
}
