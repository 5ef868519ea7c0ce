// Watches a config repo directory (../../../shared/folder-watcher.ts) and says when the served revision may have
// changed: a record file whose content differs from what the backend last saw, or a moved
// HEAD. The service's own writes change nothing it has not seen already, so they start no
// reload; neither do README edits or git's bookkeeping.
//
// In a linked worktree or a submodule checkout, `.git` is a file and the Git directory lies
// outside the working tree (../../git/git-directory.ts): it is watched too, and so is the
// common Git directory a linked worktree's branches live in, so that a commit made there
// is noticed like one made in a plain checkout.
import { join, sep } from 'node:path';
import type { Logger } from 'pino';
import { recordFileLocation } from '../../../domain/repo-layout/record-path.ts';
import { gitDirectoryOf } from '../../git/git-directory.ts';
import { headCommit } from '../../git/repository.ts';
import { readRecordFileSafely } from '../../record-files/safe-read.ts';
import { FolderWatcher } from '../../../shared/folder-watcher.ts';

/** Changes closer together than this are taken as one. */
const DEBOUNCE_MS = 100;

/** What the backend last saw: the commit HEAD named and each record file's blob id. */
export interface SeenState {
  head: string | undefined;
  files: ReadonlyMap<string, string>;
}

export class ChangeWatcher {
  readonly #dir: string;
  readonly #log: Logger;
  readonly #maxBytes: number;
  #watcher: FolderWatcher | undefined;
  /** Paths (relative, "/"-separated) reported since the last check; "*" for a folder event. */
  readonly #changed = new Set<string>();

  constructor(dir: string, log: Logger, maxBytes: number) {
    this.#dir = dir;
    this.#log = log;
    this.#maxBytes = maxBytes;
  }

  /**
   * Starts watching. `check` runs `changedSince` against the backend's state at a moment no
   * write is under way (between the runner's loads and commits), and calls `onChange` if it says so.
   */
  async start(
    check: (test: (seen: SeenState | undefined) => Promise<boolean>) => Promise<boolean>,
    onChange: () => void,
    /** Told every path an event names at once ("*" for a folder event), so the next load reads just those. */
    note: (path: string) => void = () => undefined,
  ): Promise<void> {
    const dir = this.#dir;
    const place = placeOf(dir);
    this.#watcher = new FolderWatcher(place.roots, {
      keepsProcessAlive: true,
      settleMs: DEBOUNCE_MS,
      ignored: (path: string) => {
        const rel = place.relative(path);
        // Git's own bookkeeping changes on every command; only refs and HEAD matter here
        // (the index does not: what is served is the working tree, compared with HEAD).
        return (
          /(^|\/)node_modules(\/|$)/.test(rel) ||
          /^\.git\/(objects|logs|hooks|lfs|modules|worktrees|gitops-config-api)(\/|$)/.test(rel) ||
          /^\.git\/index(\.lock)?$/.test(rel)
        );
      },
      event: (event, path) => {
        const rel = place.relative(path);
        // A folder come or gone in the working tree may hold many record files; in the Git directory it is a ref
        // folder.
        const changed = (event === 'addDir' || event === 'unlinkDir') && !rel.startsWith('.git/') ? '*' : rel;
        this.#changed.add(changed);
        note(changed);
      },
      settled: () => {
        const paths = [...this.#changed];
        this.#changed.clear();
        check((seen) => this.#changedSince(paths, seen)).then(
          (changed) => changed && onChange(),
          (error: unknown) => {
            this.#log.warn({ err: error }, 'checking the config repo for changes failed; reloading it');
            onChange();
          },
        );
      },
      failed: (error) => this.#log.warn({ err: error }, 'file watcher error'),
    });
    await this.#watcher.ready;
  }

  async close(): Promise<void> {
    await this.#watcher?.close();
    this.#watcher = undefined;
  }

  async #changedSince(paths: string[], seen: SeenState | undefined): Promise<boolean> {
    if (!seen || paths.includes('*')) return true;
    let gitChanged = false;
    for (const path of paths) {
      if (path === '.git' || path.startsWith('.git/')) {
        gitChanged = true;
        continue;
      }
      if (!recordFileLocation(path)) continue; // README.md and friends are not served
      const read = await readRecordFileSafely(this.#dir, path, this.#maxBytes).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'EISDIR') return undefined;
        throw error;
      });
      if (read?.blobId !== seen.files.get(path)) return true;
    }
    // Only a moved HEAD (a commit, a checkout, a reset) changes what is served.
    return gitChanged && (await headCommit(this.#dir)) !== seen.head;
  }
}

/**
 * What is watched for a working tree, and each event's path as if the Git directory were
 * `<dir>/.git` ("/"-separated, relative to `dir`): the working tree; and, when its Git
 * directory lies elsewhere, that directory and the common one.
 */
function placeOf(dir: string): { roots: string[]; relative: (path: string) => string } {
  let repo;
  try {
    repo = gitDirectoryOf(dir);
  } catch {
    repo = undefined; // a broken .git file: the working tree is still watched, and the start said why
  }
  const outside =
    repo && repo.gitdir !== join(dir, '.git')
      ? [repo.gitdir, ...(repo.commonDir === repo.gitdir ? [] : [repo.commonDir])]
      : [];
  const within = (path: string, root: string) => path === root || path.startsWith(root + sep);
  const slashes = (path: string) => path.split(sep).join('/');
  return {
    roots: [dir, ...outside],
    relative(path) {
      // The worktree's own Git directory first: it lies inside the common one (worktrees/<name>).
      for (const root of outside) if (within(path, root)) return slashes(`.git${path.slice(root.length)}`);
      return slashes(path.slice(dir.length + 1));
    },
  };
}
