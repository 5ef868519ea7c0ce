// A pack file's bytes, read where they are needed. At 100,000 clusters a config repo's pack is
// hundreds of megabytes; a reload that reads one commit out of it must not read it whole (it
// did: 40 ms of the event loop and the whole file in memory until the reader was dropped). A
// reader that goes on to read many objects of one pack (a diff of 10,000 files) reads it whole
// once, which costs less than thousands of small reads.
//
// Pack indexes never change under their name (a pack is named by its checksum): the parsed ones
// are kept per Git cache object, shared by the readers of one repository, for the packs that are
// still there.
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type PackIndex, parseIndex } from '../format/pack-file.ts';

/** Reads of one pack by positioned reads before the rest is read in one go. */
export const WHOLE_AFTER_READS = 256;
/** A pack this small is read whole at once. */
export const SMALL_PACK_BYTES = 1024 * 1024;

export class PackBytes {
  readonly #path: string;
  #whole: Buffer | undefined;
  #reads = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** `length` bytes from `offset`; fewer at the end of the file. */
  at(offset: number, length: number): Buffer {
    if (!this.#whole && (++this.#reads > WHOLE_AFTER_READS || this.#small())) this.#whole = readFileSync(this.#path);
    if (this.#whole) return this.#whole.subarray(offset, offset + length);
    const fd = openSync(this.#path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(length);
      return buffer.subarray(0, readSync(fd, buffer, 0, length, offset));
    } finally {
      closeSync(fd);
    }
  }

  /** At the first read: whether the pack is small enough to read whole at once. */
  #small(): boolean {
    return this.#reads === 1 && statSync(this.#path).size <= SMALL_PACK_BYTES;
  }
}

/** Parsed indexes by the .idx file's path, per Git cache object (one per repository). */
const indexes = new WeakMap<object, Map<string, PackIndex>>();

/** The version-2 indexes of the packs in `objects/pack`, parsed once per pack and cache. */
export function packIndexes(objects: string, cache: object): PackIndex[] {
  const dir = join(objects, 'pack');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.idx'));
  } catch {
    names = [];
  }
  const known = indexes.get(cache) ?? new Map<string, PackIndex>();
  const now = new Map<string, PackIndex>();
  for (const name of names) {
    const path = join(dir, name);
    const index = known.get(path) ?? parsed(path);
    if (index) now.set(path, index);
  }
  // Packs removed by a repack are forgotten.
  indexes.set(cache, now);
  return [...now.values()];
}

function parsed(path: string): PackIndex | undefined {
  try {
    const index = parseIndex(readFileSync(path));
    return index && { ...index, packPath: path.replace(/\.idx$/, '.pack') };
  } catch {
    return undefined; // removed between the listing and the read: as if not there
  }
}
