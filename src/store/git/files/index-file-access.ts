// The Git index file on disk: read (and refused, typed, when a write must not go through it),
// kept in memory while the file is the one this process wrote, and patched one entry at a
// time under .git/index.lock, as git itself does. The bytes' format is
// ../format/index-file.ts's.
import type { BigIntStats } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  INDEX_CHECKSUM_BYTES as CHECKSUM,
  type IndexEntryData,
  type IndexLayout,
  indexLayout,
  IndexNotWritable,
  patchIndex,
} from '../format/index-file.ts';
import { LockFile } from './lock-file.ts';
import { sharesBytes } from '../format/tree-object.ts';

/**
 * Why a write may not go through the index of `gitdir`, or undefined when it may (or when there is no index file yet).
 */
export async function indexWriteRefusal(gitdir: string): Promise<IndexNotWritable | undefined> {
  const index = await readIndexFile(gitdir);
  if (!index) return undefined;
  try {
    indexLayout(index);
    return undefined;
  } catch (error) {
    if (error instanceof IndexNotWritable) return error;
    throw error;
  }
}

/** The index file's bytes; undefined when there is none (a repository with no staging area yet). */
export async function readIndexFile(gitdir: string): Promise<Buffer | undefined> {
  try {
    return await readFile(join(gitdir, 'index'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The index as this process last wrote it, kept while the file on disk is that one (same
 * inode, size and times): a fleet's index is a megabyte, and a write would otherwise read and
 * scan it each time. git replaces the index by renaming a new file over it, so any change by
 * a person's command is a new inode.
 */
export class IndexFileCache {
  #stamp: string | undefined;
  #layout: IndexLayout | undefined;
  #scratch: Buffer | undefined;

  /**
   * The bytes of the index this cache held before the last one remembered: used by nothing any
   * more, for the next patch to write into (../format/index-file.ts patchIndexEntries).
   */
  scratch(): Buffer | undefined {
    return this.#scratch;
  }

  /** The index (undefined when there is none); read only under the index lock. */
  async read(gitdir: string): Promise<IndexLayout | undefined> {
    const stats = await stat(join(gitdir, 'index'), { bigint: true }).catch(() => undefined);
    if (
      stats &&
      this.#layout &&
      stampOf(stats) === this.#stamp &&
      (await sameTrailer(join(gitdir, 'index'), this.#layout.bytes))
    )
      return this.#layout;
    this.#layout = undefined;
    const bytes = await readIndexFile(gitdir);
    return bytes && indexLayout(bytes);
  }

  /** Remembers `layout` as the index just renamed into place. */
  async remember(gitdir: string, layout: IndexLayout): Promise<void> {
    const stats = await stat(join(gitdir, 'index'), { bigint: true }).catch(() => undefined);
    const before = this.#layout?.bytes;
    this.#scratch = before && !sharesBytes(before, layout.bytes) ? before : undefined;
    this.#stamp = stats && stampOf(stats);
    this.#layout = stats && layout;
  }
}

/**
 * Whether the file ends with the same checksum as `bytes`. The stamp alone can be fooled: file
 * times are kept to the kernel's clock tick, and an index a person's `git add` wrote in the
 * same tick, on a reused inode and of the same size, would look like the one this process
 * wrote. The checksum (a SHA-1 of everything before it) tells them apart for the price of
 * reading 20 bytes; an index written without one (index.skipHash: all zeros) relies on the stamp.
 */
async function sameTrailer(path: string, bytes: Buffer): Promise<boolean> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const trailer = Buffer.alloc(CHECKSUM);
    const { bytesRead } = await handle.read(trailer, 0, CHECKSUM, bytes.length - CHECKSUM);
    return bytesRead === CHECKSUM && trailer.equals(bytes.subarray(bytes.length - CHECKSUM));
  } finally {
    await handle.close();
  }
}

function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * Sets (or, with null, removes) `path`'s entry under the index lock, the way git does:
 * read the index only while holding index.lock. Returns false, changing nothing, when there
 * is no index file.
 */
export async function setIndexEntry(gitdir: string, path: string, entry: IndexEntryData | null): Promise<boolean> {
  const lock = await LockFile.take(gitdir, 'index');
  try {
    const index = await readIndexFile(gitdir);
    if (!index) {
      await lock.release();
      return false;
    }
    await lock.write(patchIndex(index, path, entry).bytes);
    await lock.commit();
    return true;
  } catch (error) {
    await lock.release();
    throw error;
  }
}
