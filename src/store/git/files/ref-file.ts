// Moving a branch the way git does (refs/files-backend.c): take "<ref>.lock", check that the
// branch still points where the caller thinks (compare-and-swap), write the new value into
// the lock, flush it, append the move to the reflog, and rename the lock over the ref (the
// rename flushed too: an answered write's branch stays moved through a power loss). A
// person's `git commit` at the same moment either waits for the lock or finds the branch
// moved; neither side's commit is lost.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LockFile, type LockOptions } from './lock-file.ts';
import { appendReflog, type ReflogEntry } from './reflog.ts';

/** The branch is not where the caller expected: someone else moved it. */
export class RefMoved extends Error {}

/** The value of a ref: its loose file, else its line in packed-refs; undefined when it does not exist. */
export async function readRef(gitdir: string, ref: string): Promise<string | undefined> {
  const loose = await readFile(join(gitdir, ref), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  // An empty or damaged loose ref (left by a tool that rewrites refs in place) is not a value.
  if (loose !== undefined && /^[0-9a-f]{40}\s*$/.test(loose)) return loose.trim();
  const packed = await readFile(join(gitdir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [oid, name] = line.split(' ');
    if (name === ref && oid && /^[0-9a-f]{40}$/.test(oid)) return oid;
  }
  return undefined;
}

/** A ref's lock, taken after checking its value: commit() moves the ref, release() gives up. */
export interface RefLock {
  /** Writes and flushes the new value into the lock; the ref moves at commit(). */
  prepare(value: string): Promise<void>;
  /** Logs the move (to the value prepared) in the reflog, and moves the ref. */
  commit(log: ReflogEntry): Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes `ref`'s lock (waiting while someone else holds it) if it still points at `expected` (undefined: must not
 * exist).
 */
export async function lockRef(
  gitdir: string,
  ref: string,
  expected: string | undefined,
  options: LockOptions = {},
): Promise<RefLock> {
  const lock = await LockFile.take(gitdir, ref, options);
  try {
    const current = await readRef(gitdir, ref);
    if (current !== expected)
      throw new RefMoved(`${ref} moved to ${current ?? '(nothing)'} while a change on ${expected} was being written`);
  } catch (error) {
    await lock.release();
    throw error;
  }
  let prepared: string | undefined;
  return {
    async prepare(value) {
      await lock.write(`${value}\n`);
      prepared = value;
    },
    async commit(log) {
      try {
        if (prepared === undefined) throw new Error(`${ref}: commit() before prepare()`);
        await moveRef(gitdir, lock, expected, prepared, log);
      } catch (error) {
        await lock.release();
        throw error;
      }
    },
    release: () => lock.release(),
  };
}

/** Points `ref` at `value`, if it still points at `expected`, and logs the move in the reflog. */
export async function updateRef(
  gitdir: string,
  ref: string,
  value: string,
  expected: string | undefined,
  log: ReflogEntry,
  options: LockOptions = {},
): Promise<void> {
  const lock = await lockRef(gitdir, ref, expected, options);
  try {
    await lock.prepare(value);
  } catch (error) {
    await lock.release();
    throw error;
  }
  await lock.commit(log);
}

/**
 * The last step of a ref's move, with its new value written and flushed into the held lock:
 * the reflog line, then the rename (flushed).
 */
export async function moveRef(
  gitdir: string,
  lock: LockFile,
  from: string | undefined,
  to: string,
  log: ReflogEntry,
): Promise<void> {
  await appendReflog(gitdir, lock.target, from, to, log);
  await lock.commit(true);
}
