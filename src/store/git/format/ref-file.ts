// Moving a branch the way git does (refs/files-backend.c): take "<ref>.lock", check that the
// branch still points where the caller thinks (compare-and-swap), write the new value into
// the lock, flush it, and rename it over the ref. A person's `git commit` at the same moment
// either waits for the lock or finds the branch moved; neither side's commit is lost.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LockFile, LOCK_WAIT_MS } from './lock-file.ts';

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
  commit(): Promise<void>;
  release(): Promise<void>;
}

/** Takes `ref`'s lock (waiting while someone else holds it) if it still points at `expected` (undefined: must not exist). */
export async function lockRef(gitdir: string, ref: string, expected: string | undefined, waitMs = LOCK_WAIT_MS): Promise<RefLock> {
  const lock = await LockFile.take(gitdir, ref, waitMs);
  try {
    const current = await readRef(gitdir, ref);
    if (current !== expected) throw new RefMoved(`${ref} moved to ${current ?? '(nothing)'} while a change on ${expected} was being written`);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return {
    prepare: (value) => lock.write(`${value}\n`),
    async commit() {
      try {
        await lock.commit();
      } catch (error) {
        await lock.release();
        throw error;
      }
    },
    release: () => lock.release(),
  };
}

/** Points `ref` at `value`, if it still points at `expected`. */
export async function updateRef(gitdir: string, ref: string, value: string, expected: string | undefined): Promise<void> {
  const lock = await lockRef(gitdir, ref, expected);
  try {
    await lock.prepare(value);
  } catch (error) {
    await lock.release();
    throw error;
  }
  await lock.commit();
}
