// STORE_BACKEND=git on a local directory: the record files of the working tree are served,
// and every change to them (an editor saving, a `git pull`, a commit) is picked up within a
// second. A revision is loaded whole and checked before it is published; if any file fails,
// the last good revision stays served and /ready says why.
//
// In crud mode (`writable`) each REST write becomes one commit (GitWriter): it is applied to
// the served snapshot in memory and checked (applyMutation), the record's file is written
// and committed, and the new snapshot is published at once, under the revision the file
// watcher would compute, so the watcher's own reload finds nothing new. Loads and writes
// run one at a time (one queue), so a reload never interleaves with a write.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import type { Logger } from 'pino';
import {
  attachFiles,
  type ConfigFile,
  parseConfigRepo,
  parseRecordFile,
  type ParsedRecordFile,
  recordFileLocation,
  recordFilePath,
} from '../../domain/config-repo.ts';
import { isValidId } from '../../domain/ids.ts';
import { formatProblem, type Problem } from '../../domain/problems.ts';
import { leadingComments, recordFileText, schemaHintLine } from '../../domain/record-file.ts';
import type { Collection } from '../../domain/records.ts';
import { createSnapshot, type Snapshot, withRevision } from '../../domain/snapshot.ts';
import { ApiError, problemsToDetails } from '../../http/errors.ts';
import type { SnapshotPublisher } from '../../serving/publisher.ts';
import { applyMutation } from '../apply-mutation.ts';
import {
  type LoadReport,
  type Mutation,
  type MutationResult,
  StoreStartError,
  type StoreStatus,
  type WritableConfigStore,
} from '../config-store.ts';
import { SerialQueue } from '../serial-queue.ts';
import { commitMessage } from './commit-message.ts';
import { type CommitAuthor, type FaultInjection, GitWriter } from './git-writer.ts';
import { unsupportedIndex } from './index-file.ts';
import { headCommit, isGitRepository, workingTreeRevision } from './revision.ts';
import { gitBlobId, readRecordFiles } from './working-tree.ts';

const DEBOUNCE_MS = 100;

export interface LocalRepoStoreOptions {
  dir: string;
  publisher: SnapshotPublisher;
  log: Logger;
  /** Watch the directory for changes (off in one-shot tools). */
  watch?: boolean;
  /** Accept REST writes (crud mode): the directory must then be a Git repository with a commit. */
  writable?: boolean;
  /** Author and committer of the commits of REST writes. */
  author?: CommitAuthor;
  /** Tests only: called at fixed points of a write, to make it fail there. */
  faultInjection?: FaultInjection;
}

/** What a loaded working tree was built from: the base a write is applied to. */
export interface WorkingTreeState {
  /** The commit HEAD pointed to (undefined outside Git or before the first commit). */
  head: string | undefined;
  /** Record file path -> Git blob id of its content. */
  files: Map<string, string>;
  /** "collection/id" -> the file that holds the record. */
  fileOf: Map<string, string>;
}

export type LoadOutcome =
  | { ok: true; snapshot: Snapshot; state?: WorkingTreeState }
  | { ok: false; problems: Problem[]; error: string };

export class LocalRepoStore implements WritableConfigStore {
  readonly backend = 'git' as const;
  readonly dir: string;
  readonly #publisher: SnapshotPublisher;
  readonly #log: Logger;
  readonly #watchEnabled: boolean;
  readonly #parseCache = new Map<string, { text: string; parsed: ParsedRecordFile | undefined }>();
  readonly #gitCache = {};
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastLoad: LoadReport | undefined;
  /** The reload in progress; reloads never overlap. */
  #loading: Promise<LoadOutcome> | undefined;
  #reloadAgain = false;
  /** Loads and writes, one at a time. */
  readonly #queue = new SerialQueue();
  readonly #writable: boolean;
  readonly #writer: GitWriter;
  /** The working tree the served snapshot was built from (after the last good load or write). */
  #state: WorkingTreeState | undefined;
  /** Paths (relative, "/"-separated) the watcher reported since the last check. */
  readonly #changedPaths = new Set<string>();
  /** Tests only: see LocalRepoStoreOptions.faultInjection. */
  faultInjection: FaultInjection | undefined;

  constructor(options: LocalRepoStoreOptions) {
    this.dir = resolve(options.dir);
    this.#publisher = options.publisher;
    this.#log = options.log;
    this.#watchEnabled = options.watch ?? true;
    this.#writable = options.writable ?? false;
    this.#writer = new GitWriter({
      dir: this.dir,
      author: options.author ?? { name: 'gitops-config-api', email: 'gitops-config-api@localhost' },
      cache: this.#gitCache,
    });
    this.faultInjection = options.faultInjection;
  }

  async start(): Promise<void> {
    if (!existsSync(this.dir) || !statSync(this.dir).isDirectory()) {
      throw new StoreStartError(`CONFIG_REPO ${this.dir} is not a directory; point CONFIG_REPO at a config repo checkout`);
    }
    if (this.#writable) await this.#checkWritable();
    if (this.#watchEnabled) await this.#startWatching();
    await this.reload('start');
  }

  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#watcher?.close();
    this.#watcher = undefined;
    await this.#loading;
    await this.#queue.idle();
  }

  /** Crud mode commits every write, so it needs a Git repository on a branch with a first commit. */
  async #checkWritable(): Promise<void> {
    const howTo =
      'crud mode commits every change, so CONFIG_REPO must be a Git repository with at least one commit ' +
      `(run "git init && git add -A && git commit -m 'initial config'" in ${this.dir}), ` +
      'or run "npm run start:crud" to serve a scratch Git copy of config-repo-example';
    if (!isGitRepository(this.dir)) throw new StoreStartError(`CONFIG_REPO ${this.dir} is not a Git repository: ${howTo}`);
    if (!(await this.#writer.branch())) {
      throw new StoreStartError(`CONFIG_REPO ${this.dir} has a detached HEAD; check out the branch crud mode should commit to`);
    }
    if (!(await headCommit(this.dir))) throw new StoreStartError(`CONFIG_REPO ${this.dir} has no commit yet: ${howTo}`);
    const index = await unsupportedIndex(join(this.dir, '.git'));
    if (index) throw new StoreStartError(`CONFIG_REPO ${this.dir}: ${index}`);
  }

  status(): StoreStatus {
    return {
      backend: this.backend,
      last_load: this.#lastLoad,
      details: { config_repo: this.dir, git_repository: isGitRepository(this.dir) },
    };
  }

  /** Loads the working tree now; concurrent calls share one load and a trailing reload. */
  async reload(reason: string): Promise<LoadOutcome> {
    if (this.#loading) {
      this.#reloadAgain = true;
      return this.#loading;
    }
    this.#loading = this.#queue.run(() => this.#loadAndPublish(reason));
    try {
      return await this.#loading;
    } finally {
      this.#loading = undefined;
      if (this.#reloadAgain) {
        this.#reloadAgain = false;
        void this.reload('changes during the last load');
      }
    }
  }

  /** Builds a snapshot of the working tree without publishing it. */
  async loadWorkingTree(): Promise<LoadOutcome> {
    const files = await readRecordFiles(this.dir);
    const withIds = files.map((f) => ({ path: f.path, text: f.bytes.toString('utf8'), blobId: gitBlobId(f.bytes) }));
    const parsed = parseConfigRepo(withIds, (file) => this.#parseCached(file));
    if (parsed.problems.length > 0) {
      return { ok: false, problems: parsed.problems, error: `${parsed.problems.length} problem(s) in the config repo` };
    }
    const revision = await workingTreeRevision(this.dir, withIds, this.#gitCache);
    const built = createSnapshot(parsed.records, revision);
    if (!built.ok) {
      const problems = attachFiles(built.problems, parsed.fileOf);
      return { ok: false, problems, error: `${problems.length} problem(s) in the config repo` };
    }
    const head = /^[0-9a-f]{40}/.exec(revision)?.[0];
    const state = { head, files: new Map(withIds.map((f) => [f.path, f.blobId])), fileOf: parsed.fileOf };
    return { ...built, state };
  }

  #parseCached(file: ConfigFile): ParsedRecordFile | undefined {
    const hit = this.#parseCache.get(file.path);
    if (hit && hit.text === file.text) return hit.parsed;
    const parsed = parseRecordFile(file);
    this.#parseCache.set(file.path, { text: file.text, parsed });
    return parsed;
  }

  async #loadAndPublish(reason: string): Promise<LoadOutcome> {
    const at = new Date().toISOString();
    let outcome: LoadOutcome;
    try {
      outcome = await this.loadWorkingTree();
    } catch (error) {
      outcome = { ok: false, problems: [], error: `cannot read ${this.dir}: ${(error as Error).message}` };
    }
    if (outcome.ok) {
      const { snapshot } = outcome;
      const previous = this.#publisher.current()?.revision;
      this.#state = outcome.state;
      this.#lastLoad = { at, ok: true, revision: snapshot.revision };
      if (previous !== snapshot.revision) {
        this.#publisher.publish(snapshot);
        this.#log.info(
          { revision: snapshot.revision, previous, reason, clusters: snapshot.clusters.size },
          'published a new revision of the config repo',
        );
      }
    } else {
      const served = this.#publisher.current()?.revision;
      this.#lastLoad = { at, ok: false, error: outcome.error, problems: outcome.problems };
      this.#log.error(
        { reason, served_revision: served ?? null, problems: outcome.problems.slice(0, 50).map(formatProblem) },
        served
          ? `config repo change rejected, still serving revision ${served}: ${outcome.error}`
          : `config repo cannot be loaded, nothing is served yet: ${outcome.error}`,
      );
    }
    return outcome;
  }

  async #startWatching(): Promise<void> {
    const dir = this.dir;
    this.#watcher = watch(dir, {
      ignoreInitial: true,
      ignored: (path: string) => {
        const rel = path.slice(dir.length + 1);
        // Git's own bookkeeping changes on every command; only refs and HEAD matter here
        // (the index does not: what is served is the working tree, compared with HEAD).
        return (
          /(^|\/)node_modules(\/|$)/.test(rel) ||
          /^\.git\/(objects|logs|hooks|lfs|modules)(\/|$)/.test(rel) ||
          /^\.git\/index(\.lock)?$/.test(rel)
        );
      },
    });
    this.#watcher.on('all', (event, path) => {
      this.#changedPaths.add(event === 'addDir' || event === 'unlinkDir' ? '*' : path.slice(dir.length + 1).split('\\').join('/'));
      this.#scheduleReload();
    });
    this.#watcher.on('error', (error) => this.#log.warn({ err: error }, 'file watcher error'));
    await new Promise<void>((ready) => this.#watcher!.once('ready', () => ready()));
  }

  #scheduleReload(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#reloadIfChanged(), DEBOUNCE_MS);
  }

  /** A full reload, unless every reported change is one the served snapshot already holds (the service's own writes). */
  async #reloadIfChanged(): Promise<void> {
    try {
      const changed = await this.#queue.run(() => this.#changedSinceLoad());
      if (changed) await this.reload('files changed');
    } catch (error) {
      this.#log.warn({ err: error }, 'checking the config repo for changes failed; reloading it');
      await this.reload('files changed');
    }
  }

  async #changedSinceLoad(): Promise<boolean> {
    const paths = [...this.#changedPaths];
    this.#changedPaths.clear();
    const state = this.#state;
    if (!state || this.#lastLoad?.ok !== true || paths.includes('*')) return true;
    let gitChanged = false;
    for (const path of paths) {
      if (path === '.git' || path.startsWith('.git/')) {
        gitChanged = true;
        continue;
      }
      if (!recordFileLocation(path)) continue; // README.md and friends are not served
      const bytes = await readFile(join(this.dir, path)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if ((bytes === undefined ? undefined : gitBlobId(bytes)) !== state.files.get(path)) return true;
    }
    // Only a moved HEAD (a commit, a checkout, a reset) changes what is served.
    return gitChanged && (await headCommit(this.dir)) !== state.head;
  }

  /**
   * Applies one REST write and commits it. Writes run one at a time, each on the snapshot
   * the last one (or the last load) left; the answer is given once the commit exists and
   * the new snapshot is published.
   */
  mutate(mutation: Mutation): Promise<MutationResult> {
    if (!this.#writable) return Promise.reject(new ApiError('not_found', 'this store is read-only; start the service with API_MODE=crud'));
    return this.#queue.run(() => this.#mutate(mutation));
  }

  async #mutate(mutation: Mutation): Promise<MutationResult> {
    // Ids are file names here; the REST layer refuses bad ones, and so does the store.
    if (!isValidId(mutation.id)) throw new ApiError('validation_error', `"${mutation.id}" is not a valid id`);
    // Commits made in the directory by someone else are loaded first, so the change is
    // applied to what HEAD holds and is not lost by publishing an older base.
    if (this.#state && (await headCommit(this.dir)) !== this.#state.head) {
      await this.#loadAndPublish('commits made outside the service');
    }
    if (this.#lastLoad?.ok === false) {
      throw new ApiError(
        'unavailable',
        `the config repo has problems, so it takes no writes until they are fixed: ${this.#lastLoad.error}; see /ready`,
        {
          details: problemsToDetails(
            (this.#lastLoad.problems ?? [])
              .slice(0, 20)
              .map((p) => ({ path: p.file ?? p.path, message: p.file && p.path ? `${p.path}: ${p.message}` : p.message })),
          ),
        },
      );
    }
    const base = this.#publisher.current()?.snapshot;
    const state = this.#state;
    if (!base || !state?.head) {
      throw new ApiError('unavailable', 'no configuration has been loaded yet; see /ready', { headers: { 'retry-after': '5' } });
    }

    const applied = applyMutation(base, mutation, base.revision);
    const result = { record: applied.record, revisionBefore: base.revision, changedFields: applied.changedFields };
    if (applied.unchanged) return { ...result, revisionAfter: base.revision, snapshot: base, unchanged: true };

    const { collection, id } = mutation;
    const key = `${collection}/${id}`;
    const path = state.fileOf.get(key) ?? recordFilePath(collection, id);
    const previous = await readFile(join(this.dir, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    const text =
      applied.record === null
        ? null
        : recordFileText(collection, applied.record, previous ? leadingComments(previous.toString('utf8')) : await this.#schemaHint(collection, state));
    const message = commitMessage(mutation, applied.changedFields);

    let commit: string;
    try {
      commit = await this.#writer.commit({ path, text, previous }, message, state.head, this.faultInjection);
    } catch (error) {
      this.#log.error({ err: error, collection, id, path }, 'a REST write could not be committed; the repo was put back as it was');
      throw new ApiError('store_error', `the change could not be committed, so nothing was stored: ${(error as Error).message}`);
    }

    // The state is only touched inside the queue, so it is updated in place.
    const wasClean = base.revision === state.head;
    const { files, fileOf } = state;
    if (text === null) {
      files.delete(path);
      fileOf.delete(key);
      this.#parseCache.delete(path);
    } else {
      files.set(path, gitBlobId(Buffer.from(text)));
      fileOf.set(key, path);
      this.#parseCache.set(path, { text, parsed: { collection, record: applied.record!, problems: [] } });
    }
    state.head = commit;
    // Uncommitted edits of other files stay uncommitted, and the revision says so, exactly
    // as the watcher's next load would.
    const revision = wasClean ? commit : await this.#revisionOf(files);
    const snapshot = withRevision(applied.snapshot, revision);
    this.#publisher.publish(snapshot);
    this.#lastLoad = { at: new Date().toISOString(), ok: true, revision };
    this.#log.info({ revision, previous: base.revision, commit, clusters: snapshot.clusters.size }, 'published a REST write');
    return { ...result, revisionAfter: revision, snapshot };
  }

  async #revisionOf(files: Map<string, string>): Promise<string> {
    const list = [...files].map(([path, blobId]) => ({ path, blobId })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return workingTreeRevision(this.dir, list, this.#gitCache);
  }

  /** The schema hint line the other files of the folder start with, for a new file. */
  async #schemaHint(collection: Collection, state: WorkingTreeState): Promise<string> {
    for (const [key, path] of state.fileOf) {
      if (!key.startsWith(`${collection}/`)) continue;
      const text = await readFile(join(this.dir, path), 'utf8').catch(() => '');
      return schemaHintLine(text);
    }
    return '';
  }
}
