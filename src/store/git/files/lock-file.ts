// Git's lock files, taken the way git takes them (lockfile.c): "<file>.lock" created
// exclusively, the new content written into it, flushed, and renamed over the file. Whoever
// holds "<file>.lock" owns the file until the rename; every git command honours that, so a
// person's `git commit` and a write of this service never interleave on the index or a ref.
//
// What git does not leave is a way to tell, after a crash, whose lock a leftover file is.
// This service creates its lock as a hard link of a file of its own, named after the process
// that takes it and the locked file (.git/gitops-config-api/locks/<tag>.<n>.<file>, the tag
// naming the process's incarnation: ../../process-identity.ts). A lock that is the same inode
// as such a file is this service's; when that process is gone, the lock is stale and is
// removed wherever it is met: by the next start, and by any write that finds it in its way.
// Any other lock is a person's, and is never touched.
import { link, lstat, readdir, rename, rm, type FileHandle, open } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { makeDirectory, syncDirectory } from './flushed-file.ts';
import { isAlive, ownTag, TAG_PATTERN } from './process-identity.ts';
import { RetryPolicy } from '../../../shared/retry.ts';

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

/** A lock of this service whose process was gone, removed so that a write could take it. */
export interface StaleLock {
  lock: string;
  /** The tag of the process that had taken it. */
  owner: string;
}

export interface LockOptions {
  /** How long to wait while someone else holds the lock (default LOCK_WAIT_MS). */
  waitMs?: number;
  /** Told of each stale lock of this service removed on the way. */
  onStaleLock?: (stale: StaleLock) => void;
}

/** Where this service keeps the files that identify its locks and writes in progress. */
export function serviceDir(gitdir: string): string {
  return join(gitdir, 'gitops-config-api');
}

function locksDir(gitdir: string): string {
  return join(serviceDir(gitdir), 'locks');
}

/** "<tag>.<n>.<locked file, URI-encoded>" */
const IDENTITY = new RegExp(`^(${TAG_PATTERN})\\.\\d+\\.(.+)$`);
/** A stale lock moved aside to be checked before it is removed: "aside.<tag of the process removing it>.<n>". */
const ASIDE = new RegExp(`^aside\\.(${TAG_PATTERN})\\.\\d+$`);

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
  static async take(gitdir: string, target: string, options: LockOptions = {}): Promise<LockFile> {
    const waitMs = options.waitMs ?? LOCK_WAIT_MS;
    const locks = locksDir(gitdir);
    await makeDirectory(locks);
    const identity = join(locks, `${ownTag()}.${++sequence}.${encodeURIComponent(target)}`);
    const handle = await open(identity, 'wx');
    const lockPath = join(gitdir, `${target}.lock`);
    await makeDirectory(dirname(lockPath));
    // From 5 ms, doubling up to 200 ms: a person's git command holds a lock for milliseconds,
    // so the first tries come quickly; no jitter, as the other holder does not retry in step.
    const pauses = new RetryPolicy({ firstMs: 5, maxMs: 200, deadline: Date.now() + waitMs });
    for (;;) {
      let failure: NodeJS.ErrnoException;
      try {
        await link(identity, lockPath);
        return new LockFile(gitdir, target, identity, handle);
      } catch (error) {
        failure = error as NodeJS.ErrnoException;
      }
      if (failure.code === 'EEXIST') {
        const stale = await removeIfStale(gitdir, lockPath).catch(() => undefined);
        if (stale && stale !== 'released') {
          options.onStaleLock?.(stale);
          continue;
        }
      }
      const delay = failure.code === 'EEXIST' ? pauses.next() : undefined;
      if (delay === undefined) {
        await handle.close().catch(() => undefined);
        await rm(identity, { force: true });
        if (failure.code !== 'EEXIST') throw failure;
        throw new LockHeld(
          lockPath,
          `${lockPath} has been held by another git command for more than ${Math.round(waitMs / 1000)} s; ` +
            'if no git command is running in the config repo, a crashed one left it: remove the file',
        );
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
    for (let at = 0; at < bytes.length;)
      at += (await this.#handle.write(bytes, at, bytes.length - at, at)).bytesWritten;
    if (flush) await this.#handle.sync();
  }

  /**
   * Renames the lock over the file: the new content is in place, and the lock is free. With
   * `flush`, the rename itself is flushed too (the folder): a ref that moved stays moved
   * through a power loss, as the write it records was answered as done.
   */
  async commit(flush = false): Promise<void> {
    this.#done = true;
    await this.#handle.close();
    const file = join(this.#gitdir, this.target);
    await rename(this.path, file);
    if (flush) await syncDirectory(dirname(file));
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
 * Removes the lock at `lockPath` if it is this service's and the process that took it is
 * gone, and returns it then; "released" when there is no lock any more. A person's lock, or
 * a live process's, is left alone.
 */
async function removeIfStale(gitdir: string, lockPath: string): Promise<StaleLock | 'released' | undefined> {
  const lock = await lstat(lockPath).catch(() => undefined);
  if (!lock) return 'released';
  const owner = await identityOf(gitdir, lock);
  if (!owner || (await isAlive(owner.tag))) return undefined;
  // Moved aside and checked rather than removed: another process that met the same stale
  // lock may have removed it and taken the lock itself meanwhile; what was moved aside is
  // then that process's lock, and goes straight back.
  const aside = join(locksDir(gitdir), `aside.${ownTag()}.${++sequence}`);
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'released';
    throw error;
  }
  const moved = await lstat(aside);
  if (!sameFile(moved, lock)) {
    await link(aside, lockPath).catch(() => undefined);
    await rm(aside, { force: true });
    return undefined;
  }
  await rm(aside, { force: true });
  await rm(owner.path, { force: true });
  return { lock: lockPath, owner: owner.tag };
}

/** The identity file of this service that `lock` is a hard link of, if any. */
async function identityOf(gitdir: string, lock: Stats): Promise<{ path: string; tag: string } | undefined> {
  if (lock.nlink < 2) return undefined;
  const dir = locksDir(gitdir);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const match = IDENTITY.exec(name);
    if (!match) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(() => undefined);
    if (info && sameFile(info, lock)) return { path, tag: match[1] };
  }
  return undefined;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev;
}

/**
 * Removes what stopped processes of this service left in `gitdir`'s lock folder: the locks
 * still linked to one of their identity files, the identity files, and locks moved aside.
 * A live process's locks (another instance on the same repo) are left alone. Returns the
 * lock files removed.
 */
export async function clearStaleLocks(gitdir: string): Promise<StaleLock[]> {
  const dir = locksDir(gitdir);
  const removed: StaleLock[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const aside = ASIDE.exec(name);
    if (aside) {
      if (!(await isAlive(aside[1]))) await rm(join(dir, name), { force: true });
      continue;
    }
    const match = IDENTITY.exec(name);
    if (!match || (await isAlive(match[1]))) continue;
    const lockPath = join(gitdir, `${decodeURIComponent(match[2])}.lock`);
    const stale = await removeIfStale(gitdir, lockPath);
    if (stale && stale !== 'released') removed.push(stale);
    await rm(join(dir, name), { force: true });
  }
  return removed;
}
