// Notices that files may have changed by watching the folders that hold them, not the files.
// Kubernetes mounts a Secret as symlinks into a `..data` folder and updates it by swapping that
// link: the files' own inodes never change, and a watch on a file would keep reporting on the
// old, deleted one. A folder watch sees the swap, a rename into place and an edit alike.
import { type FSWatcher, watch } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';

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
  const watchers = new Map<string, FSWatcher>();
  let settle: NodeJS.Timeout | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    clearTimeout(settle);
    settle = setTimeout(changed, options.settleMs);
    settle.unref();
  };
  const watchFolder = (folder: string) => {
    if (watchers.has(folder)) return;
    try {
      // persistent: false — watching certificates must not keep a stopping process alive.
      const watcher = watch(folder, { persistent: false }, schedule);
      watcher.on('error', (error) => {
        options.log.warn({ folder, error: error.message }, 'TLS files: the folder watch failed; looking again at the next periodic check');
        watcher.close();
        watchers.delete(folder);
      });
      watchers.set(folder, watcher);
    } catch (error) {
      options.log.warn({ folder, error: (error as Error).message }, 'TLS files: cannot watch the folder; relying on the periodic check');
    }
  };
  for (const folder of folders) watchFolder(folder);
  const recheck = setInterval(() => {
    for (const folder of folders) watchFolder(folder);
    changed();
  }, options.recheckMs);
  recheck.unref();

  return () => {
    stopped = true;
    clearTimeout(settle);
    clearInterval(recheck);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
