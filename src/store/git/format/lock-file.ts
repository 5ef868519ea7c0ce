// Git's lock files, taken the way git takes them (lockfile.c): "<file>.lock" created
// exclusively, the new content written into it, flushed, and renamed over the file. Whoever
// holds "<file>.lock" owns the file until the rename; every git command honours that, so a
// person's `git commit` and a write of this service never interleave on the index or a ref.
//
// What git does not leave is a way to tell, after a crash, whose lock a leftover file is.
// This service creates its lock as a hard link of a file of its own, named after the
// process and the locked file (.git/gitops-config-api/locks/<pid>.<n>.<file>): a leftover
// lock that is the same inode as such a file was left by this service and can be removed at
// the next start; any other leftover lock is a person's, and is never touched.
import { link, lstat, mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';

/** Another process has held the lock for longer than a write waits. */
export class LockHeld extends Error {
  readonly lockPath: string;

  constructor(lockPath: string, message: string) {
    super(message);
    this.name = 'LockHeld';
    this.lockPath = lockPath;
  }
}

/** How long a write waits for a lock a person's git command holds: a commit takes milliseconds. */
export const LOCK_WAIT_MS = 3_000;

/** Where this service keeps the files that identify its locks and writes in progress. */
export function serviceDir(gitdir: string): string {
  return join(gitdir, 'gitops-config-api');
}

let sequence = 0;

export class LockFile {
  /** The locked file, relative to the Git directory ("index", "refs/heads/main"). */
  readonly target: string;
  readonly #gitdir: string;
  readonly #identity: string;
  readonly #handle: FileHandle;
  #done = false;

  private constructor(gitdir: string, target: string, identity: string, handle: FileHandle) {
    this.#gitdir = gitdir;
    this.target = target;
    this.#identity = identity;
    this.#handle = handle;
  }

  get path(): string {
    return join(this.#gitdir, `${this.target}.lock`);
  }

  /** Takes "<target>.lock", waiting up to `waitMs` (with a growing pause) while someone else holds it. */
  static async take(gitdir: string, target: string, waitMs = LOCK_WAIT_MS): Promise<LockFile> {
    const locks = join(serviceDir(gitdir), 'locks');
    await mkdir(locks, { recursive: true });
    const identity = join(locks, `${process.pid}.${++sequence}.${encodeURIComponent(target)}`);
    const handle = await open(identity, 'wx');
    const lockPath = join(gitdir, `${target}.lock`);
    await mkdir(dirname(lockPath), { recursive: true });
    const started = Date.now();
    for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
      try {
        await link(identity, lockPath);
        return new LockFile(gitdir, target, identity, handle);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() - started >= waitMs) {
          await handle.close().catch(() => undefined);
          await rm(identity, { force: true });
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          throw new LockHeld(
            lockPath,
            `${lockPath} has been held by another git command for more than ${Math.round(waitMs / 1000)} s; ` +
              'if no git command is running in the config repo, a crashed one left it: remove the file',
          );
        }
      }
      await pause(delay);
    }
  }

  /**
   * Writes the file's new content into the lock and flushes it to disk — unless `flush` is
   * false, for a file git itself does not flush either (the index: derived from HEAD and the
   * working tree, rebuilt by `git reset` after a power loss).
   */
  async write(content: string | Buffer, flush = true): Promise<void> {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    await this.#handle.truncate(0);
    for (let at = 0; at < bytes.length; ) at += (await this.#handle.write(bytes, at, bytes.length - at, at)).bytesWritten;
    if (flush) await this.#handle.sync();
  }

  /** Renames the lock over the file: the new content is in place, and the lock is free. */
  async commit(): Promise<void> {
    this.#done = true;
    await this.#handle.close();
    await rename(this.path, join(this.#gitdir, this.target));
    await rm(this.#identity, { force: true });
  }

  /** Gives the lock up, leaving the file as it was. */
  async release(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.#handle.close().catch(() => undefined);
    await rm(this.path, { force: true });
    await rm(this.#identity, { force: true });
  }
}

/**
 * Removes the locks a crashed process of this service left in `gitdir`: each identity file
 * of a process that is gone, and the lock it is linked to if it still is. A live process's
 * locks (another instance on the same repo) are left alone. Returns the lock files removed.
 */
export async function clearStaleLocks(gitdir: string): Promise<string[]> {
  const locks = join(serviceDir(gitdir), 'locks');
  const names = await readdir(locks).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const match = /^(\d+)\.\d+\.(.+)$/.exec(name);
    if (!match || isRunning(Number(match[1]))) continue;
    const identity = join(locks, name);
    const lockPath = join(gitdir, `${decodeURIComponent(match[2]!)}.lock`);
    const [mine, lock] = await Promise.all([lstat(identity).catch(() => undefined), lstat(lockPath).catch(() => undefined)]);
    if (mine && lock && mine.ino === lock.ino && mine.dev === lock.dev) {
      await rm(lockPath, { force: true });
      removed.push(lockPath);
    }
    await rm(identity, { force: true });
  }
  return removed;
}

/** Whether another process with this id runs now (this process's own id counts as gone: its locks are from before a restart). */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
