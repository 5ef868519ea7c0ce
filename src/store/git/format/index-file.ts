// Sets or removes one entry of a Git index file (.git/index) without decoding and
// re-encoding the other entries: on a repo of 10,000 record files, re-serializing the whole
// index entry by entry costs more than everything else a REST write does. The file is
// patched as bytes (format versions 2 and 3), read and written only under .git/index.lock,
// as git itself does. Optional extensions (the cache tree and friends) are dropped; git rebuilds
// them when it needs them. An index in a form this code does not patch (version 4, a split
// or a sparse index; isomorphic-git reads none of them either) is refused with an error
// saying how to convert it.
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LockFile } from './lock-file.ts';

export interface IndexEntryData {
  /** Blob id (40 hex digits). */
  oid: string;
  /** The working-tree file's stat, so that git sees the file as unchanged. */
  stats: BigIntStats;
}

const HEADER = 12;
const FIXED = 62; // stat fields (40) + object id (20) + flags (2)
const CHECKSUM = 20;

export class UnsupportedIndexError extends Error {}

const HOW_TO_CONVERT = 'run "git update-index --index-version 2 --no-split-index" in the config repo (and do not set index.version=4, feature.manyFiles or core.splitIndex there)';

const damaged = () => new UnsupportedIndexError(`the Git index is damaged or in an unknown form; ${HOW_TO_CONVERT}`);

/**
 * Why this code cannot patch the index of `gitdir`, or undefined when it can (or when there
 * is no index file yet).
 */
export async function unsupportedIndex(gitdir: string): Promise<string | undefined> {
  const index = await readFile(join(gitdir, 'index')).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!index) return undefined;
  try {
    indexLayout(index);
    return undefined;
  } catch (error) {
    if (error instanceof UnsupportedIndexError) return error.message;
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
 * An index file's bytes with where each entry starts: found once by a scan (which also
 * refuses forms this code does not patch), then kept up to date by each patch, so a write
 * finds its entry by binary search instead of walking 10,000 entries.
 */
export interface IndexLayout {
  bytes: Buffer;
  /** starts[i]: the offset of entry i; entries are in path order. */
  starts: Uint32Array;
  /** Where the entries end (the extensions, then the checksum, follow). */
  entriesEnd: number;
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

  /** The index (undefined when there is none); read only under the index lock. */
  async read(gitdir: string): Promise<IndexLayout | undefined> {
    const stats = await stat(join(gitdir, 'index'), { bigint: true }).catch(() => undefined);
    if (stats && this.#layout && stampOf(stats) === this.#stamp) return this.#layout;
    this.#layout = undefined;
    const bytes = await readIndexFile(gitdir);
    return bytes && indexLayout(bytes);
  }

  /** Remembers `layout` as the index just renamed into place. */
  async remember(gitdir: string, layout: IndexLayout): Promise<void> {
    const stats = await stat(join(gitdir, 'index'), { bigint: true }).catch(() => undefined);
    this.#stamp = stats && stampOf(stats);
    this.#layout = stats && layout;
  }
}

function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** Finds where each entry starts. Throws UnsupportedIndexError for a form this code does not patch. */
export function indexLayout(index: Buffer): IndexLayout {
  if (index.length < HEADER + CHECKSUM || index.toString('latin1', 0, 4) !== 'DIRC') {
    throw damaged();
  }
  const version = index.readUInt32BE(4);
  if (version !== 2 && version !== 3) {
    throw new UnsupportedIndexError(`the Git index is of version ${version}, which crud mode cannot update; ${HOW_TO_CONVERT}`);
  }
  const count = index.readUInt32BE(8);
  const starts = new Uint32Array(count);
  let offset = HEADER;
  for (let i = 0; i < count; i++) {
    if (offset + FIXED > index.length) throw damaged();
    starts[i] = offset;
    const extended = (index.readUInt16BE(offset + 60) & 0x4000) !== 0;
    if (extended && version < 3) throw damaged();
    const pathEnd = index.indexOf(0, offset + FIXED + (extended ? 2 : 0));
    if (pathEnd === -1) throw damaged();
    offset += (pathEnd - offset + 8) & ~7;
  }
  // Extensions: a split index ("link") or a sparse one ("sdir") cannot be patched this way.
  for (let at = offset; at + 8 <= index.length - CHECKSUM; ) {
    const signature = index.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') {
      throw new UnsupportedIndexError(`the Git index is ${signature === 'link' ? 'split' : 'sparse'}, which crud mode cannot update; ${HOW_TO_CONVERT}`);
    }
    at += 8 + index.readUInt32BE(at + 4);
  }
  return { bytes: index, starts, entriesEnd: offset };
}

/** The path of the entry at `start`. */
function entryPath(index: Buffer, start: number): Buffer {
  const extended = (index.readUInt16BE(start + 60) & 0x4000) !== 0;
  const from = start + FIXED + (extended ? 2 : 0);
  return index.subarray(from, index.indexOf(0, from));
}

/** The first entry whose path is not before `target`. */
function firstAtOrAfter(layout: IndexLayout, target: Buffer): number {
  let low = 0;
  let high = layout.starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (Buffer.compare(entryPath(layout.bytes, layout.starts[mid]!), target) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The entries of `path` (all its stages): [first, end) in entry numbers. */
function entriesOf(layout: IndexLayout, target: Buffer): [number, number] {
  const first = firstAtOrAfter(layout, target);
  let end = first;
  while (end < layout.starts.length && Buffer.compare(entryPath(layout.bytes, layout.starts[end]!), target) === 0) end++;
  return [first, end];
}

/**
 * The index with `path`'s entry (stage 0) set to `entry`, or with every entry of `path`
 * removed when `entry` is null. Throws UnsupportedIndexError for an index in a form this code
 * does not patch. Extensions (the cache tree and friends) are dropped; git rebuilds them.
 */
export function patchIndex(index: Buffer | IndexLayout, path: string, entry: IndexEntryData | null): IndexLayout {
  const layout = Buffer.isBuffer(index) ? indexLayout(index) : index;
  const target = Buffer.from(path, 'utf8');
  const [first, end] = entriesOf(layout, target);
  const { bytes, starts, entriesEnd } = layout;
  const from = first < starts.length ? starts[first]! : entriesEnd;
  const to = end < starts.length ? starts[end]! : entriesEnd;
  const replacement = entry ? encodeEntry(target, entry) : Buffer.alloc(0);
  // One buffer for the whole new index, checksum included (a fleet's index is a megabyte).
  const length = entriesEnd - (to - from) + replacement.length;
  const out = Buffer.allocUnsafe(length + CHECKSUM);
  bytes.copy(out, 0, 0, from);
  replacement.copy(out, from);
  bytes.copy(out, from + replacement.length, to, entriesEnd);
  const count = starts.length - (end - first) + (entry ? 1 : 0);
  out.writeUInt32BE(count, 8);
  createHash('sha1').update(out.subarray(0, length)).digest().copy(out, length);
  const next = new Uint32Array(count);
  next.set(starts.subarray(0, first));
  if (entry) next[first] = from;
  const shift = replacement.length - (to - from);
  const rest = starts.subarray(end);
  const at = first + (entry ? 1 : 0);
  for (let i = 0; i < rest.length; i++) next[at + i] = rest[i]! + shift;
  return { bytes: out, starts: next, entriesEnd: length };
}

/** The object id of `path`'s stage-0 entry, or undefined when the index has none. */
export function indexEntryOid(index: Buffer, path: string): string | undefined {
  const layout = indexLayout(index);
  const [first, end] = entriesOf(layout, Buffer.from(path, 'utf8'));
  if (first === end) return undefined;
  const start = layout.starts[first]!;
  return index.toString('hex', start + 40, start + 60);
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

function encodeEntry(path: Buffer, { oid, stats }: IndexEntryData): Buffer {
  const length = (FIXED + path.length + 8) & ~7;
  const out = Buffer.alloc(length); // zero-filled: the path's NUL padding
  const u32 = (value: bigint) => Number(value & 0xffffffffn);
  out.writeUInt32BE(u32(stats.ctimeNs / 1_000_000_000n), 0);
  out.writeUInt32BE(Number(stats.ctimeNs % 1_000_000_000n), 4);
  out.writeUInt32BE(u32(stats.mtimeNs / 1_000_000_000n), 8);
  out.writeUInt32BE(Number(stats.mtimeNs % 1_000_000_000n), 12);
  out.writeUInt32BE(u32(stats.dev), 16);
  out.writeUInt32BE(u32(stats.ino), 20);
  // Git records regular files as 100644 or 100755 only.
  out.writeUInt32BE(Number(stats.mode) & 0o111 ? 0o100755 : 0o100644, 24);
  out.writeUInt32BE(u32(stats.uid), 28);
  out.writeUInt32BE(u32(stats.gid), 32);
  out.writeUInt32BE(u32(stats.size), 36);
  Buffer.from(oid, 'hex').copy(out, 40);
  out.writeUInt16BE(Math.min(path.length, 0xfff), 60);
  path.copy(out, FIXED);
  return out;
}
