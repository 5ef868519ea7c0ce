// Lists the record files of a config repo's working tree (only the four record folders) and
// reads each through the bounded pool, safely (./safe-read.ts): what is not a regular file or
// is too large is listed with the problem that keeps it from being read.
import { lstatSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecordFileName, RECORD_FOLDERS, recordFileLocation } from '../../domain/repo-layout/record-path.ts';
import { fileReads, isTransient } from './read-pool.ts';
import {
  byPath,
  DEFAULT_MAX_RECORD_BYTES,
  gitBlobId,
  type RecordFileEntry,
  RecordRefused,
} from './record-file-entry.ts';
import {
  type FileStamp,
  fileKind,
  fileStamp,
  notRegular,
  readRecordFileSafely,
  readRegularFileSync,
  type SafeRead,
} from './safe-read.ts';

/** Every *.yaml / *.yml entry of the record folders, read (or refused), in path order. */
export async function readWorkingTree(dir: string, maxBytes = DEFAULT_MAX_RECORD_BYTES): Promise<RecordFileEntry[]> {
  return new WorkingTreeReader(dir, maxBytes).readAll();
}

interface KnownFile {
  /** Without its text: the loader keeps the parse of every file of the revision it loaded last. */
  entry: RecordFileEntry;
  stamp: FileStamp | undefined;
}

/** A file just read: what is kept of it, and the entry with its text for this one load. */
interface FreshFile extends KnownFile {
  withText: RecordFileEntry;
}

/**
 * The record files of a working tree, read again only where they changed. A server keeps one
 * for the life of the process: a reload after an edit reads the files the watcher named, and
 * a full look (at start, after a checkout) re-reads only the files whose stat changed.
 */
export class WorkingTreeReader {
  readonly #dir: string;
  readonly #maxBytes: number;
  #known = new Map<string, KnownFile>();
  /** The kept entries in path order, while no file came or went. */
  #sorted: RecordFileEntry[] | undefined;

  constructor(dir: string, maxBytes = DEFAULT_MAX_RECORD_BYTES) {
    this.#dir = dir;
    this.#maxBytes = maxBytes;
  }

  /** Every record file: listed anew, each read unless its stat says it is the file read before. */
  async readAll(): Promise<RecordFileEntry[]> {
    const { records, refused } = await listRecordFolders(this.#dir);
    const known = this.#known;
    const next = new Map<string, KnownFile>();
    const fresh = new Map<string, RecordFileEntry>();
    const keep = (path: string, file: KnownFile | FreshFile | undefined) => {
      if (!file) return;
      next.set(path, { entry: file.entry, stamp: file.stamp });
      if ('withText' in file) fresh.set(path, file.withText);
    };
    // Files read before are checked by their stat; the others (all of them at start) are read.
    // Both synchronously, in slices between which the event loop turns; whatever needs care
    // (a link, a FIFO, an oversized file) goes through the careful path afterwards.
    const unknown: string[] = [];
    await inSlices(records, (path) => {
      const before = known.get(path);
      if (before && this.#unchanged(path, before)) keep(path, before);
      else unknown.push(path);
    });
    const careful: string[] = [];
    await inSlices(unknown, (path) => {
      let read;
      try {
        read = readRegularFileSync(this.#dir, path, this.#maxBytes);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // gone since it was listed
        // Out of descriptors for a moment: the careful path waits and tries again.
        if (!isTransient(error)) throw error;
      }
      if (read) keep(path, this.#fresh(path, read));
      else careful.push(path);
    });
    for (const [path, file] of await fileReads.map(careful, async (path) => [path, await this.#read(path)] as const))
      keep(path, file);
    for (const entry of refused) next.set(entry.path, { entry, stamp: undefined });
    this.#known = next;
    this.#sorted = undefined;
    return this.#entries(fresh);
  }

  /** Whether the file's stat vouches that it is the one read before (one lstat; nothing is read). */
  #unchanged(path: string, before: KnownFile): boolean {
    if (!before.stamp || before.stamp.racy) return false;
    const stats = lstatSync(join(this.#dir, path), { bigint: true, throwIfNoEntry: false });
    return stats !== undefined && fileStamp(stats, BigInt(Date.now()) * 1_000_000n).key === before.stamp.key;
  }

  /** The files as last read, with `paths` (repo-relative) read again: changed, added or gone. */
  async readChanged(paths: Iterable<string>): Promise<RecordFileEntry[]> {
    const wanted = [...new Set(paths)].filter(
      (path) => recordFileLocation(path) && isRecordFileName(path.slice(path.lastIndexOf('/') + 1)),
    );
    const fresh = new Map<string, RecordFileEntry>();
    const results = await fileReads.map(wanted, async (path) => [path, await this.#read(path)] as const);
    for (const [path, file] of results) {
      if (!file || !this.#known.has(path)) this.#sorted = undefined;
      if (!file) {
        this.#known.delete(path);
        continue;
      }
      this.#known.set(path, { entry: file.entry, stamp: file.stamp });
      fresh.set(path, file.withText);
    }
    return this.#entries(fresh);
  }

  /** The blob id of a record file as last read (a stand-in for a refused one); undefined when it is not listed. */
  blobIdOf(path: string): string | undefined {
    return this.#known.get(path)?.entry.blobId;
  }

  /**
   * The record files that may differ from what was last read, by a listing and a stat of each
   * (nothing is read): new ones, gone ones, and ones whose stat changed. For a periodic look
   * that catches what a file watcher can miss (an overflowing event queue).
   */
  async changedPaths(): Promise<string[]> {
    const { records, refused } = await listRecordFolders(this.#dir);
    const listed = new Set([...records, ...refused.map((entry) => entry.path)]);
    const changed = [...this.#known.keys()].filter((path) => !listed.has(path));
    await inSlices(records, (path) => {
      const before = this.#known.get(path);
      if (!before || !this.#unchanged(path, before)) changed.push(path);
    });
    for (const entry of refused)
      if (this.#known.get(entry.path)?.entry.blobId !== entry.blobId) changed.push(entry.path);
    return changed;
  }

  /**
   * Every file in path order: the ones just read with their text, the others as kept. A list
   * handed out is never changed afterwards (the loader compares the next one with it): while no
   * file came or went, the files read again are put in place in a copy (a copy of 100,000
   * references, not a walk that looks each path up).
   */
  #entries(fresh: ReadonlyMap<string, RecordFileEntry>): RecordFileEntry[] {
    if (!this.#sorted) this.#sorted = [...this.#known.values()].map((file) => file.entry).sort(byPath);
    else if (fresh.size > 0)
      this.#sorted = withInPlace(this.#sorted, fresh.keys(), (path) => this.#known.get(path)!.entry);
    return fresh.size === 0 ? this.#sorted : withInPlace(this.#sorted, fresh.keys(), (path) => fresh.get(path)!);
  }

  /** One file, read safely; undefined when it is gone (or became a folder) since it was named. */
  async #read(path: string): Promise<FreshFile | undefined> {
    let read;
    try {
      read = await readRecordFileSafely(this.#dir, path, this.#maxBytes);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
      throw error;
    }
    // A folder under a record's name is listed through its files, as a full listing does.
    if ('refused' in read && read.blobId === 'refused:a directory') return undefined;
    return this.#fresh(path, read);
  }

  #fresh(path: string, read: SafeRead): FreshFile {
    if ('refused' in read) {
      const entry = { path, blobId: read.blobId, refused: read.refused };
      return { entry, stamp: undefined, withText: entry };
    }
    // The entry is kept until the file changes: its reader names the blob id alone, not `read`, whose bytes may be a
    // view of one of Node's 64 KiB pool buffers (Buffer.allocUnsafe of a small file) that a kept view keeps whole.
    const { blobId } = read;
    const entry: RecordFileEntry = { path, blobId, read: () => this.#readText(path, blobId) };
    return { entry, stamp: read.stamp, withText: { ...entry, text: read.bytes.toString('utf8') } };
  }

  /**
   * The text of `path` if it is still the content `blobId` names, read safely through the
   * pool; undefined when it changed, went or is not a regular file any more.
   */
  async textIfSame(path: string, blobId: string): Promise<string | undefined> {
    return fileReads.run(() => this.#readText(path, blobId)).catch(() => undefined);
  }

  /**
   * The text of a file whose parse was not kept (an entry handed out before without its text), if it is still that
   * content.
   */
  async #readText(path: string, blobId: string): Promise<string> {
    const read = await readRecordFileSafely(this.#dir, path, this.#maxBytes);
    if ('refused' in read) throw new RecordRefused(read.refused);
    // Changed since it was listed: this load is out of date; the next one reads it afresh.
    if (read.blobId !== blobId) throw new Error(`${path} changed while the working tree was being read`);
    return read.bytes.toString('utf8');
  }
}

/** How long one slice of synchronous reads may hold the event loop. */
const SLICE_MS = 8;

/** Runs `task` for each item, giving the event loop a turn every SLICE_MS. */
async function inSlices<T>(items: readonly T[], task: (item: T) => void): Promise<void> {
  let started = performance.now();
  for (let i = 0; i < items.length; i++) {
    task(items[i]);
    if ((i & 15) === 15 && performance.now() - started > SLICE_MS) {
      await new Promise((resume) => setImmediate(resume));
      started = performance.now();
    }
  }
}

/** Files in the record folders that are skipped for their name (not *.yaml / *.yml, not hidden). */
export async function ignoredWorkingTreeFiles(dir: string): Promise<string[]> {
  return (await listRecordFolders(dir)).ignored.sort();
}

/**
 * The entries of the record folders, as repo paths: files to read, record names that are no regular files, and the
 * others.
 */
async function listRecordFolders(
  dir: string,
): Promise<{ records: string[]; refused: RecordFileEntry[]; ignored: string[] }> {
  const records: string[] = [];
  const refused: RecordFileEntry[] = [];
  const ignored: string[] = [];
  for (const folder of RECORD_FOLDERS) {
    let entries;
    try {
      entries = await readdir(join(dir, folder), { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const entry of entries) {
      const path = join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/');
      if (entry.isFile()) {
        if (isRecordFileName(entry.name)) records.push(path);
        else if (!entry.name.startsWith('.')) ignored.push(path);
      } else if (!entry.isDirectory() && isRecordFileName(entry.name)) {
        // A link, a pipe or a device under a record's name: never followed nor opened. A link's
        // id is Git's (the blob of its target), so a committed link leaves the tree clean.
        const kind = fileKind(entry);
        const blobId = entry.isSymbolicLink()
          ? gitBlobId(Buffer.from(await readlink(join(dir, path))))
          : `refused:${kind}`;
        refused.push({ path, blobId, refused: notRegular(path, kind) });
      }
    }
  }
  return { records, refused, ignored };
}

/** A copy of `entries` (in path order) with the entry of each of `paths` there replaced by `entryOf(path)`. */
function withInPlace(
  entries: readonly RecordFileEntry[],
  paths: Iterable<string>,
  entryOf: (path: string) => RecordFileEntry,
): RecordFileEntry[] {
  const copy = entries.slice();
  for (const path of paths) {
    let low = 0;
    let high = copy.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = copy[mid].path;
      if (at === path) {
        copy[mid] = entryOf(path);
        break;
      }
      if (at < path) low = mid + 1;
      else high = mid - 1;
    }
  }
  return copy;
}
