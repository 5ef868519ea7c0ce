// STORE_BACKEND=git on a local directory: the record files of the working tree are served,
// and every change to them (an editor saving, a `git pull`, a commit) is picked up within a
// second. A revision is loaded whole and checked before it is published; if any file fails,
// the last good revision stays served and /ready says why.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import type { Logger } from 'pino';
import { attachFiles, type ConfigFile, parseConfigRepo, parseRecordFile, type ParsedRecordFile } from '../../domain/config-repo.ts';
import { formatProblem, type Problem } from '../../domain/problems.ts';
import { createSnapshot, type Snapshot } from '../../domain/snapshot.ts';
import type { SnapshotPublisher } from '../../serving/publisher.ts';
import { type ConfigStore, type LoadReport, StoreStartError, type StoreStatus } from '../config-store.ts';
import { isGitRepository, workingTreeRevision } from './revision.ts';
import { gitBlobId, readRecordFiles } from './working-tree.ts';

const DEBOUNCE_MS = 100;

export interface LocalRepoStoreOptions {
  dir: string;
  publisher: SnapshotPublisher;
  log: Logger;
  /** Watch the directory for changes (off in one-shot tools). */
  watch?: boolean;
}

export type LoadOutcome = { ok: true; snapshot: Snapshot } | { ok: false; problems: Problem[]; error: string };

export class LocalRepoStore implements ConfigStore {
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

  constructor(options: LocalRepoStoreOptions) {
    this.dir = resolve(options.dir);
    this.#publisher = options.publisher;
    this.#log = options.log;
    this.#watchEnabled = options.watch ?? true;
  }

  async start(): Promise<void> {
    if (!existsSync(this.dir) || !statSync(this.dir).isDirectory()) {
      throw new StoreStartError(`CONFIG_REPO ${this.dir} is not a directory; point CONFIG_REPO at a config repo checkout`);
    }
    if (this.#watchEnabled) await this.#startWatching();
    await this.reload('start');
  }

  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#watcher?.close();
    this.#watcher = undefined;
    await this.#loading;
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
    this.#loading = this.#loadAndPublish(reason);
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
    return built;
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
        // Git's own bookkeeping changes on every command; only refs and HEAD matter here.
        return /(^|\/)node_modules(\/|$)/.test(rel) || /^\.git\/(objects|logs|hooks|lfs|modules)(\/|$)/.test(rel);
      },
    });
    this.#watcher.on('all', () => this.#scheduleReload());
    this.#watcher.on('error', (error) => this.#log.warn({ err: error }, 'file watcher error'));
    await new Promise<void>((ready) => this.#watcher!.once('ready', () => ready()));
  }

  #scheduleReload(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.reload('files changed'), DEBOUNCE_MS);
  }
}
