// Reads one record file of a working tree, and only if it is a regular file of a sane size:
// a symlink is never followed, a FIFO or a device never opened (a FIFO would block a read
// forever, /dev/zero would fill the memory), and a file over the limit is refused from its
// size, without being read. The checks run on the opened descriptor too (O_NOFOLLOW,
// O_NONBLOCK, fstat), so a file swapped between listing and reading cannot slip through.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { BigIntStats, Dirent } from 'node:fs';
import { createHash } from 'node:crypto';
import { type FileHandle, open, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type Problem, problem } from '../../domain/problem.ts';
import { recordFileLocation } from '../../domain/repo-layout/record-path.ts';
import { gitBlobId } from './record-file-entry.ts';

/**
 * What a file read was made from, as far as stat can tell: the same inode, size, and change
 * and modification times mean the same content (git's own test for an unchanged file).
 */
export interface FileStamp {
  key: string;
  /** Modified so shortly before it was read that an edit within the file system's time resolution could go unseen. */
  racy: boolean;
}

export type SafeRead = ({ bytes: Buffer; blobId: string } | { refused: Problem; blobId: string }) & {
  stamp?: FileStamp;
};

/** Coarse file systems keep times to 2 s; a file modified this close to its read is re-read next time. */
const RACY_WINDOW_NS = 2_000_000_000n;

/** The stamp of an lstat or fstat result taken at `readAtNs` (wall clock, ns). */
export function fileStamp(stats: BigIntStats, readAtNs: bigint): FileStamp {
  return {
    key: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`,
    racy: readAtNs - stats.mtimeNs < RACY_WINDOW_NS,
  };
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What kind of file a directory entry or stat is, in words, when it is not a regular file. */
export function fileKind(
  entry: Pick<Dirent, 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isDirectory'>,
): string {
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a FIFO (named pipe)';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'a device';
  if (entry.isDirectory()) return 'a directory';
  return 'not a regular file';
}

export function notRegular(path: string, kind: string): Problem {
  return problem(
    'not_regular_file',
    at(path),
    `is ${kind}; record files must be regular files (links, pipes and devices are never followed or opened)`,
  );
}

export function tooLarge(path: string, bytes: number, max: number): Problem {
  return problem('file_too_large', at(path), `is ${bytes} bytes, over MAX_RECORD_BYTES (${max}); it is not read`);
}

function at(path: string): Problem['at'] {
  const location = recordFileLocation(path);
  return {
    ...(location ? { record: { collection: location.collection, id: location.name } } : {}),
    field: '',
    file: path,
  };
}

/** Hashed in chunks up to this many times the limit, so that a committed oversized file is seen as committed. */
const HASH_OVERSIZED_UP_TO = 16;
const CHUNK = 64 * 1024;

/**
 * The Git blob id of a file too large to be read, hashed chunk by chunk (never held whole,
 * and the event loop keeps turning between chunks); past HASH_OVERSIZED_UP_TO times the
 * limit, a stand-in that changes with the file's size and time.
 */
async function oversizedBlobId(handle: FileHandle, size: number, maxBytes: number, mtimeMs: number): Promise<string> {
  if (size > HASH_OVERSIZED_UP_TO * maxBytes) return `refused:large:${size}:${mtimeMs}`;
  const hash = createHash('sha1').update(`blob ${size}\0`);
  const chunk = Buffer.allocUnsafe(CHUNK);
  let total = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK, total);
    if (bytesRead === 0) break;
    hash.update(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return total === size ? hash.digest('hex') : `refused:large:${total}:${mtimeMs}`;
}

/**
 * The common case, read synchronously: a regular file within the limit. Undefined for
 * anything else — a link, a FIFO, a device, a file over the limit or one that grows while it
 * is read — which readRecordFileSafely then reads (or refuses) with every care. Reading 10,000
 * small files this way costs a tenth of reading them through promises, one at a time, in
 * slices between which the event loop turns (see WorkingTreeReader).
 */
export function readRegularFileSync(dir: string, path: string, maxBytes: number): SafeRead | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, path), OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    return undefined;
  }
  try {
    const readAtNs = BigInt(Date.now()) * 1_000_000n;
    const stats = fstatSync(fd, { bigint: true });
    const size = Number(stats.size);
    if (!stats.isFile() || size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(size + 1);
    let length = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) return undefined; // grew since fstat
    }
    const bytes = buffer.subarray(0, length);
    const stamp = fileStamp(stats, readAtNs);
    return { bytes, blobId: gitBlobId(bytes), stamp: length === size ? stamp : { ...stamp, racy: true } };
  } finally {
    closeSync(fd);
  }
}

/** Reads `path` (repo-relative) under `dir`, or says why not. ENOENT is thrown (the file is gone). */
export async function readRecordFileSafely(dir: string, path: string, maxBytes: number): Promise<SafeRead> {
  let handle;
  try {
    handle = await open(join(dir, path), OPEN_FLAGS);
  } catch (error) {
    // O_NOFOLLOW on a symbolic link fails with ELOOP; its id is Git's, the blob of its target.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      return {
        refused: notRegular(path, 'a symbolic link'),
        blobId: gitBlobId(Buffer.from(await readlink(join(dir, path)))),
      };
    }
    throw error;
  }
  try {
    const readAtNs = BigInt(Date.now()) * 1_000_000n;
    const stats = await handle.stat({ bigint: true });
    const size = Number(stats.size);
    const mtimeMs = Number(stats.mtimeMs);
    const stamp = fileStamp(stats, readAtNs);
    if (!stats.isFile())
      return { refused: notRegular(path, fileKind(stats)), blobId: `refused:${fileKind(stats)}`, stamp };
    if (size > maxBytes)
      return {
        refused: tooLarge(path, size, maxBytes),
        blobId: await oversizedBlobId(handle, size, maxBytes, mtimeMs),
        stamp,
      };
    // Read to the end, but never more than one byte past the limit: a file that grew since
    // fstat is refused too.
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, size + 1));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes)
          return {
            refused: tooLarge(path, length, maxBytes),
            blobId: `refused:large:${length}:${mtimeMs}`,
            stamp: { ...stamp, racy: true },
          };
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const bytes = buffer.subarray(0, length);
    // A file that changed while it was read is not vouched for by its stamp.
    return { bytes, blobId: gitBlobId(bytes), stamp: length === size ? stamp : { ...stamp, racy: true } };
  } finally {
    await handle.close();
  }
}
