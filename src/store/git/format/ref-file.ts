// Moving a branch the way git does (refs/files-backend.c): take "<ref>.lock" exclusively,
// check that the branch still points where the caller thinks (compare-and-swap), write the
// new value into the lock file, flush it, and rename it over the ref. A person's `git commit`
// at the same moment either waits for the lock or finds the branch moved; neither side's
// commit is lost.
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The branch is not where the caller expected: someone else moved it. */
export class RefMoved extends Error {}

/** Another process holds the ref's lock file. */
export class RefLocked extends Error {}

/** The value of a ref: its loose file, else its line in packed-refs; undefined when it does not exist. */
export async function readRef(gitdir: string, ref: string): Promise<string | undefined> {
  const loose = await readFile(join(gitdir, ref), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (loose !== undefined) return loose.trim();
  const packed = await readFile(join(gitdir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [oid, name] = line.split(' ');
    if (name === ref && oid && /^[0-9a-f]{40}$/.test(oid)) return oid;
  }
  return undefined;
}

/** A ref's lock, taken after checking its value: commit() moves the ref, release() gives up. */
export interface RefLock {
  commit(value: string): Promise<void>;
  release(): Promise<void>;
}

/** Takes `ref`'s lock if it still points at `expected` (undefined: must not exist). */
export async function lockRef(gitdir: string, ref: string, expected: string | undefined): Promise<RefLock> {
  const path = join(gitdir, ref);
  const lock = `${path}.lock`;
  await mkdir(dirname(path), { recursive: true });
  let handle;
  try {
    handle = await open(lock, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new RefLocked(`${ref} is locked (${lock} exists): another git command is updating it`);
    }
    throw error;
  }
  const release = async () => {
    await handle.close().catch(() => undefined);
    await rm(lock, { force: true });
  };
  try {
    const current = await readRef(gitdir, ref);
    if (current !== expected) throw new RefMoved(`${ref} moved to ${current ?? '(nothing)'} while a change on ${expected} was being written`);
  } catch (error) {
    await release();
    throw error;
  }
  return {
    async commit(value) {
      try {
        await handle.writeFile(`${value}\n`);
        await handle.sync();
        await handle.close();
        await rename(lock, path);
      } catch (error) {
        await release();
        throw error;
      }
    },
    release,
  };
}

/** Points `ref` at `value`, if it still points at `expected`. */
export async function updateRef(gitdir: string, ref: string, value: string, expected: string | undefined): Promise<void> {
  await (await lockRef(gitdir, ref, expected)).commit(value);
}
