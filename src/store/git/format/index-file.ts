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
import { readFile } from 'node:fs/promises';
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
    locate(index, Buffer.alloc(0));
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
 * The index with `path`'s entry (stage 0) set to `entry`, or with every entry of `path`
 * removed when `entry` is null. Throws UnsupportedIndexError for an index in a form this code
 * does not patch.
 */
export function patchIndex(index: Buffer, path: string, entry: IndexEntryData | null): Buffer {
  const target = Buffer.from(path, 'utf8');
  const { count, entriesEnd, removeStart, removeEnd, insertAt, removed } = locate(index, target);

  const replacement = entry ? encodeEntry(target, entry) : Buffer.alloc(0);
  let before: Buffer;
  let after: Buffer;
  if (removeStart !== -1) {
    before = index.subarray(HEADER, removeStart);
    after = index.subarray(removeEnd, entriesEnd);
  } else {
    const at = insertAt === -1 ? entriesEnd : insertAt;
    before = index.subarray(HEADER, at);
    after = index.subarray(at, entriesEnd);
  }
  const header = Buffer.from(index.subarray(0, HEADER));
  header.writeUInt32BE(count - removed + (entry ? 1 : 0), 8);
  const body = Buffer.concat([header, before, replacement, after]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** The object id of `path`'s stage-0 entry, or undefined when the index has none. */
export function indexEntryOid(index: Buffer, path: string): string | undefined {
  const target = Buffer.from(path, 'utf8');
  const { removeStart } = locate(index, target);
  if (removeStart === -1) return undefined;
  return index.toString('hex', removeStart + 40, removeStart + 60);
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
    await lock.write(patchIndex(index, path, entry));
    await lock.commit();
    return true;
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** Where `target`'s entries are in the index (or where a new one goes), and where the entries end. */
function locate(index: Buffer, target: Buffer) {
  if (index.length < HEADER + CHECKSUM || index.toString('latin1', 0, 4) !== 'DIRC') {
    throw damaged();
  }
  const version = index.readUInt32BE(4);
  if (version !== 2 && version !== 3) {
    throw new UnsupportedIndexError(`the Git index is of version ${version}, which crud mode cannot update; ${HOW_TO_CONVERT}`);
  }
  const count = index.readUInt32BE(8);
  let offset = HEADER;
  let removeStart = -1;
  let removeEnd = -1;
  let insertAt = -1;
  let removed = 0;
  for (let i = 0; i < count; i++) {
    if (offset + FIXED > index.length) throw damaged();
    const flags = index.readUInt16BE(offset + 60);
    const extended = (flags & 0x4000) !== 0;
    if (extended && version < 3) throw damaged();
    const pathStart = offset + FIXED + (extended ? 2 : 0);
    const pathEnd = index.indexOf(0, pathStart);
    if (pathEnd === -1) throw damaged();
    const end = offset + ((pathEnd - offset + 8) & ~7);
    const order = Buffer.compare(index.subarray(pathStart, pathEnd), target);
    if (order === 0) {
      if (removeStart === -1) removeStart = offset;
      removeEnd = end;
      removed++;
    } else if (order > 0 && insertAt === -1) {
      insertAt = offset;
    }
    offset = end;
  }
  const entriesEnd = offset;
  // Extensions: a split index ("link") or a sparse one ("sdir") cannot be patched this way.
  for (let at = entriesEnd; at + 8 <= index.length - CHECKSUM; ) {
    const signature = index.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') {
      throw new UnsupportedIndexError(`the Git index is ${signature === 'link' ? 'split' : 'sparse'}, which crud mode cannot update; ${HOW_TO_CONVERT}`);
    }
    at += 8 + index.readUInt32BE(at + 4);
  }

  return { count, entriesEnd, removeStart, removeEnd, insertAt, removed };
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
