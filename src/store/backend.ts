// The port every store backend implements, and nothing more: load the newest revision, watch
// for new ones, commit the record changes of one write or one change set, describe itself (and, to survive a restart,
// offer
// its history or keep what the rules need of the revision published last). Everything around it (judging a
// revision, keeping the last good one, serializing writes, the audit trail, the load report)
// is the StoreRunner's (./store-runner.ts), once for every backend.
//
// Adding a backend is one folder under ./backends/ and one line in ./backends/index.ts.
import type { BaselineFacts } from '../domain/baseline.ts';
import type { Problem } from '../domain/problem.ts';
import type { RecordSets } from '../domain/records.ts';
import type { ReplacedRecords } from '../domain/snapshot-update.ts';
import type { PublishedRevision } from './runner/published-revision.ts';
import type { ChangedRecord } from '../domain/writes/change-set.ts';
import type { Role, WriteAuthor } from '../domain/writes/write-request.ts';

/** A revision as a backend read it, before it is built into a snapshot and judged. */
export interface LoadedRevision {
  /** The revision id: a Git commit (with a marker for uncommitted edits), a database counter, a seed hash. */
  revision: string;
  /** The records that were read; those of a file or row with problems are left out. */
  records: RecordSets;
  /** Problems found while reading: files, rows, schema. */
  problems: Problem[];
  /** "collection/id" -> the file the record came from (empty for stores without files). */
  sources: ReadonlyMap<string, string>;
  /** The newest commit says `Gitops-Allow-Shrink: yes`: a mass shrink is meant (Git). */
  allowShrink?: boolean;
  /**
   * When the loader knows it: these records are those of revision `base` with a few put in
   * place of the records of their ids, none added or removed (building the snapshot from
   * `base`'s then costs what changed).
   */
  replaced?: ReplacedRecords;
}

/**
 * What a revision says of itself, where the store knows: a Git commit's author, time and
 * message. The history of revisions shows them.
 */
export interface RevisionFacts {
  author: { name: string; email: string | null } | null;
  /** When it was made (ISO 8601). */
  time: string | null;
  message: string | null;
}

/** What the runner has seen already; a backend that still holds one of these need not read it again. */
export interface KnownRevisions {
  /** The revision served now. A backend may keep it, to find it again after a restart. */
  served?: string;
  /** The last revision refused. */
  refused?: string;
  /**
   * A commit has just found the store moved, and the backend looked at its newest revision
   * to tell: it may answer from that look rather than look again (a remote's fetch). Only a
   * write applying itself again asks this way; a stale answer costs it one more try, never
   * a wrong result, since every commit is checked against the store's head.
   */
  lookedJustNow?: boolean;
}

/** A load either reads a new revision or finds that the store still holds a known one. */
export type LoadResult = { loaded: LoadedRevision } | { unchanged: string };

/** One record change to store, with the facts the audit trail keeps. `record` null deletes it. */
export type RecordChange = ChangedRecord;

/**
 * What one commit stores: the record changes of one REST write, or of one change set (each
 * record once, in the order the set first wrote it), with the commit's message and who made
 * them. A single write is a set of one: every backend stores both the same way, all or nothing.
 */
export interface ChangeSet {
  /** At least one. */
  changes: readonly RecordChange[];
  /** The commit message: the caller's, or one made from the changes (./change-set-message.ts). */
  message: string;
  /** The role the request was made with. */
  role: Role;
  /** Who made it: a Git backend makes a person the commit's author. */
  who: WriteAuthor;
}

/** How a commit is to be made. */
export interface CommitOptions {
  /**
   * When the write gives up (ms since the epoch): a backend that waits and tries again on its
   * own (a push refused for a lock the remote held) stops by then.
   */
  deadline?: number;
}

export interface CommitResult {
  /** The revision the store holds after the change. */
  revision: string;
  /**
   * "collection/id" -> the file that now holds the record, for each record written and not deleted (stores with files).
   */
  sources?: ReadonlyMap<string, string>;
}

export interface BackendDescription {
  /**
   * Facts for everyone who asks /ready: states, times, counts, a branch name. Never a path, a
   * URL or an error's text, which can tell an outsider how the service is set up.
   */
  details: Record<string, unknown>;
  /**
   * Facts shown on /ready only to a caller with a token, over `details` (a key in both is
   * shown from here): folders, the repository's URL without its secrets, error texts.
   */
  internal?: Record<string, unknown>;
  /** The branch a push webhook should name, for a store that follows a remote Git branch. */
  pushBranch?: string;
  /** True for a store that follows a remote: a push webhook makes sense. */
  followsRemote: boolean;
  /**
   * A store fetched from a remote on an interval: how often, and when a fetch last succeeded (the metrics export both).
   */
  sync?: { intervalMs: number; lastSuccessAt: Date | undefined };
  /** Nothing but the service's own writes ever changes this store (a seed file in memory). */
  fixed?: boolean;
}

export interface WriteLock {
  release(): Promise<void>;
}

/** Runs `look` in the runner's queue: between loads and commits, never during one. */
export type Between = <T>(look: () => Promise<T>) => Promise<T>;

export interface Backend {
  /** Start-up checks and preparation. Throws StartupError for what waiting will not fix. */
  open(): Promise<void>;
  /** The store's newest revision. Throws StoreUnavailable when it cannot be read now. */
  load(known: KnownRevisions): Promise<LoadResult>;
  /**
   * Calls `onChange` whenever the store may hold a new revision, until close(). `between` runs
   * a look of the backend's own (a watcher comparing the files with what it last saw) between
   * the runner's loads and commits, never during one: the runner's queue, handed down. Called
   * once the first load has ended: a change made before the watch began is reported too.
   */
  watch(onChange: (reason: string) => void, between: Between): void;
  /**
   * Stores the changes on top of `base` (the published revision the write was applied to), all in one revision (one
   * commit, one transaction).
   * The runner calls it in its queue: commits run one at a time, never during a load.
   * Throws BaseMoved when the store no longer holds `base`, StoreUnavailable when it cannot
   * take them; in both cases nothing is stored.
   */
  commit(set: ChangeSet, base: PublishedRevision, options?: CommitOptions): Promise<CommitResult>;
  /**
   * Takes the store's own write lock until release(), for a store others write to as well
   * (Git's index and branch locks): after a write met a moved store, the runner loads,
   * applies and commits again under it, so the next attempt cannot meet a moved store again.
   */
  lockForWrite?(): Promise<WriteLock>;
  describe(): BackendDescription;
  close(): Promise<void>;
  /**
   * Whether this store knows `revision` as `than` itself or a revision before it (Git: an
   * ancestor commit; SQLite: a lower counter). False when it is newer, on another line, or
   * unknown (not fetched yet): replicas told of a revision use this to tell whether it is
   * news to them. A store without it takes every other revision as news.
   */
  isOlder?(revision: string, than: string): Promise<boolean>;
  /**
   * The revision the store's source holds as its newest now, asked for without loading it or
   * changing anything a load reads (a remote: its branch's head, nothing fetched; Git: HEAD's
   * commit; SQLite: the counter). Replicas told of a revision make sure with it that there is
   * something newer than what they serve before they hold their polls (a revision made up
   * holds nothing). A store without it (memory) holds nothing another replica could announce.
   */
  newestRevision?(): Promise<string | undefined>;
  /**
   * What the store knows of the revision (Git: its commit's author, time and message);
   * undefined for one it cannot tell of (uncommitted edits, a commit no longer there).
   */
  revisionFacts?(revision: string): Promise<RevisionFacts | undefined>;
  /**
   * The texts of record files as `revision` holds them, by path, read as the loaders read
   * record files (regular files within MAX_RECORD_BYTES, through the read pool). A file the
   * store cannot vouch for (gone, changed since that revision was loaded, not a regular file)
   * is left out. Asked only for the few files a refused revision's problems name, to give each
   * problem its line and column. A store without files (SQLite, memory) has none.
   */
  sourceTexts?(revision: string, files: readonly string[]): Promise<Map<string, string>>;

  // What a restart needs to judge the store's revision against the one published before it,
  // so that a restart never falls behind what was served. A store with history offers its
  // history; one without keeps facts.

  /**
   * The revisions before `revision`, at most `limit` of the newest, yielded OLDEST first
   * (Git: the branch's first-parent history). At start the runner judges each as it comes
   * against the newest that passed, to find the revision a restart must not fall behind;
   * oldest first lets it hold one revision at a time, not the whole history.
   */
  ancestors?(revision: string, limit: number): AsyncIterable<LoadedRevision>;
  /** What the rules need of the revision published last, as kept by keepBaseline (a store without history). */
  recallBaseline?(): Promise<BaselineFacts | undefined>;
  keepBaseline?(facts: BaselineFacts): Promise<void>;
}
