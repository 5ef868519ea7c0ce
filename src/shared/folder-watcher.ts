// The one way the service watches folders: chokidar, with the events of a burst taken as one.
// The config repo's working tree (store/backends/git-local/change-watcher.ts) and the folders
// of the TLS files (http/transport/folder-watch.ts) both watch through it; each says what an
// event means to it, and what to do once a burst has settled.
//
// Links are never followed: a link swapped (a Kubernetes Secret's `..data`) is a change of its
// own entry, and what it points at is not read through the watch.
import { type FSWatcher, watch } from 'chokidar';

export interface FolderWatcherOptions {
  /** How long events must pause before `settled` is called: one call per burst. */
  settleMs: number;
  /** Every event as it comes (chokidar's event name and the path), before the burst settles. */
  event?: (event: string, path: string) => void;
  /** Called once the events of a burst have paused for `settleMs`. */
  settled: () => void;
  /** The watch itself failed (not an event): said, the watch goes on. */
  failed: (error: unknown) => void;
  /** Paths not watched at all. */
  ignored?: (path: string) => boolean;
  /** Only the folders' own entries (0), or everything below them (undefined). */
  depth?: number;
  /** Whether the watch keeps a process alive that has nothing else to do. */
  keepsProcessAlive: boolean;
}

export class FolderWatcher {
  readonly #watcher: FSWatcher;
  readonly #options: FolderWatcherOptions;
  #settle: NodeJS.Timeout | undefined;
  #closed = false;
  /** Resolves once the folders are watched (their first scan done). */
  readonly ready: Promise<void>;

  constructor(folders: string[], options: FolderWatcherOptions) {
    this.#options = options;
    this.#watcher = watch(folders, {
      persistent: options.keepsProcessAlive,
      ignoreInitial: true,
      followSymlinks: false,
      ...(options.depth === undefined ? {} : { depth: options.depth }),
      ...(options.ignored ? { ignored: options.ignored } : {}),
    });
    this.ready = new Promise<void>((resolve) => this.#watcher.once('ready', () => resolve()));
    this.#watcher.on('all', (event, path) => {
      if (this.#closed) return;
      options.event?.(event, path);
      this.#restartSettle();
    });
    this.#watcher.on('error', (error) => options.failed(error));
  }

  /** Watches these folders again (their watch ended when they were removed or replaced). */
  add(folders: string[]): void {
    this.#watcher.add(folders);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#settle);
    await this.#watcher.close();
  }

  #restartSettle(): void {
    clearTimeout(this.#settle);
    this.#settle = setTimeout(() => this.#options.settled(), this.#options.settleMs);
    if (!this.#options.keepsProcessAlive) this.#settle.unref();
  }
}
