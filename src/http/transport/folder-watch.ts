// Notices that files may have changed by watching the folders that hold them, not the files.
// Kubernetes mounts a Secret as symlinks into a `..data` folder and updates it by swapping that
// link: the files' own inodes never change, and a watch on a file would keep reporting on the
// old, deleted one. A folder watch sees the swap, a rename into place and an edit alike.
//
// The watching is the service's one folder watcher (shared/folder-watcher.ts), as for the
// config repo (store/backends/git-local/change-watcher.ts). Links are not followed (a link
// swapped is a change of its own entry) and only the folders' own entries are watched, not
// what lies below them.
import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { FolderWatcher } from '../../shared/folder-watcher.ts';

export interface FolderWatchOptions {
  /**
   * How long events must pause before `changed` is called: one call per burst (a Secret
   * update is several folder events, a pair of files is written one after the other).
   */
  settleMs: number;
  /**
   * `changed` is also called this often, events or not: for file systems that report no
   * events, and to watch again a folder whose watch was lost (the folder was replaced).
   */
  recheckMs: number;
  log: Logger;
}

/** Watches the folders of `files`; `changed` is called after changes settle. Returns stop. */
export function watchFolders(files: string[], changed: () => void, options: FolderWatchOptions): () => void {
  const folders = [...new Set(files.map((file) => dirname(resolve(file))))];
  /** Folders whose watch ended (the folder was removed or replaced): watched again at the next periodic check. */
  const lost = new Set<string>();
  const watcher = new FolderWatcher(folders, {
    // Watching certificates must not keep a stopping process alive.
    keepsProcessAlive: false,
    depth: 0,
    settleMs: options.settleMs,
    event: (event, path) => {
      if (event === 'unlinkDir' && folders.includes(resolve(path))) lost.add(resolve(path));
    },
    settled: changed,
    failed: (error) => {
      options.log.warn(
        { folders, error: (error as Error).message },
        'TLS files: the folder watch failed; looking again at the next periodic check',
      );
    },
  });
  // The files were read before the watch began: one written in between sends no event, so look
  // once the watch is in place (a renewal at start-up would otherwise wait for the periodic check).
  let stopped = false;
  void watcher.ready.then(() => stopped || changed());
  const recheck = setInterval(() => {
    if (lost.size > 0) {
      watcher.add([...lost]);
      lost.clear();
    }
    changed();
  }, options.recheckMs);
  recheck.unref();

  return () => {
    stopped = true;
    clearInterval(recheck);
    void watcher.close();
  };
}
