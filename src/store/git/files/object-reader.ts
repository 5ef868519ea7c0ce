// Reads many objects of a config repo (blobs, trees, commits) from the Git object store, fast.
//
// isomorphic-git reads every object through pako, its pure-JavaScript zlib, at about a
// millisecond per object: 10,000 changed cluster files cost 10 s before any comparison
// starts. This reader takes the same objects straight from the loose object files and the
// version-2 pack indexes with Node's native zlib, and checks each result against its object
// id (SHA-1 of "blob <size>\0<content>"), so it can never return anything but the blob that
// was asked for. Whatever it cannot read itself (another index version, alternates, a
// corrupt object) goes to isomorphic-git's readBlob, which stays the reference.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlib, inflateSync } from 'node:zlib';
import git from 'isomorphic-git';
import { type CommitObject, decodeCommit } from '../format/commit-object.ts';
import { sharedGitDir } from '../git-directory.ts';
import { applyDelta, deltaSizes, findOffset, type PackIndex, packEntryHeader } from '../format/pack-file.ts';
import { PackBytes, packIndexes } from './pack-bytes.ts';
import { decodeTree, type TreeItem } from '../format/tree-object.ts';

/** A blob over the size a record file may have: refused before it is read whole. */
export class BlobTooLarge extends Error {
  readonly bytes: number;

  constructor(bytes: number) {
    super(`the blob is ${bytes} bytes`);
    this.bytes = bytes;
  }
}

interface RawObject {
  type: number;
  data: Buffer;
}

const OBJ_COMMIT = 1;
const OBJ_TREE = 2;
const OBJ_BLOB = 3;
/** Parsed trees kept: the record folders of the last commits read. */
const TREE_CACHE_LIMIT = 8;
const OBJ_OFS_DELTA = 6;
const OBJ_REF_DELTA = 7;
const TYPE_NAMES: Record<number, string> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
/** An entry's type and size (a varint of up to 10 bytes) and a delta's base (an offset varint, or an id of 20). */
const ENTRY_HEAD_BYTES = 32;
/** Delta bases kept in memory; chains share their bases, so a small cache saves most inflates. */
const BASE_CACHE_LIMIT = 4096;

export class ObjectReader {
  /** The Git directory that holds the objects (a linked worktree's common one). */
  readonly #gitdir: string;
  readonly #cache: object;
  readonly #objects: string | undefined;
  #packs: PackIndex[] | undefined;
  readonly #packBytes = new Map<PackIndex, PackBytes>();
  readonly #bases = new Map<string, RawObject>();
  readonly #trees = new Map<string, TreeItem[]>();

  constructor(dir: string, cache: object = {}) {
    this.#gitdir = sharedGitDir(dir);
    this.#cache = cache;
    let objects: string | undefined = join(this.#gitdir, 'objects');
    try {
      if (!statSync(objects).isDirectory()) objects = undefined;
    } catch {
      objects = undefined; // not a repository: isomorphic-git says what is missing
    }
    this.#objects = objects;
  }

  /**
   * The blob's text; a blob larger than `maxBytes` is refused (BlobTooLarge) from its header, before it is inflated.
   */
  async readText(oid: string, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
    const size = this.blobSize(oid);
    if (size !== undefined && size > maxBytes) throw new BlobTooLarge(size);
    const fast = this.readNative(oid);
    const bytes = fast ?? Buffer.from((await git.readBlob({ fs, gitdir: this.#gitdir, oid, cache: this.#cache })).blob);
    if (bytes.length > maxBytes) throw new BlobTooLarge(bytes.length);
    return bytes.toString('utf8');
  }

  /**
   * The size of an object from its header (loose) or its pack entry, without inflating it whole; undefined when
   * unknown.
   */
  blobSize(oid: string): number | undefined {
    if (this.#objects === undefined || !/^[0-9a-f]{40}$/.test(oid)) return undefined;
    try {
      const file = readFileSync(join(this.#objects, oid.slice(0, 2), oid.slice(2)));
      const head = inflateSync(file.subarray(0, 64), { finishFlush: zlib.Z_SYNC_FLUSH });
      const match = /^[a-z]+ (\d+)\0/.exec(head.toString('latin1'));
      return match ? Number(match[1]) : undefined;
    } catch {
      // not loose: look in the packs
    }
    try {
      for (const pack of this.#packIndexes()) {
        const offset = findOffset(pack, oid);
        if (offset !== undefined) return this.#packedSize(pack, offset);
      }
    } catch {
      return undefined;
    }
    return undefined;
  }

  /**
   * The blob, read with Node's zlib from a loose object or a version-2 pack; undefined for anything this reader does
   * not handle.
   */
  readNative(oid: string): Buffer | undefined {
    return this.#verified(oid, OBJ_BLOB);
  }

  /** A tree's entries, read natively and remembered by id (objects never change); undefined when not readable here. */
  readTree(oid: string): TreeItem[] | undefined {
    const known = this.#trees.get(oid);
    if (known) return known;
    const data = this.#verified(oid, OBJ_TREE);
    const items = data && decodeTree(data);
    if (!items) return undefined;
    if (this.#trees.size >= TREE_CACHE_LIMIT) this.#trees.delete(this.#trees.keys().next().value!);
    this.#trees.set(oid, items);
    return items;
  }

  /** A commit's tree, parents and message, read natively; undefined when not readable here. */
  readCommit(oid: string): CommitObject | undefined {
    const data = this.#verified(oid, OBJ_COMMIT);
    return data && decodeCommit(data);
  }

  /** The object's data, if it has this type and its content hashes to its id. */
  #verified(oid: string, type: number): Buffer | undefined {
    if (this.#objects === undefined || !/^[0-9a-f]{40}$/.test(oid)) return undefined;
    try {
      const object = this.#readObject(oid, 0);
      if (!object || object.type !== type) return undefined;
      const id = createHash('sha1')
        .update(`${TYPE_NAMES[type]} ${object.data.length}\0`)
        .update(object.data)
        .digest('hex');
      return id === oid ? object.data : undefined;
    } catch {
      return undefined;
    }
  }

  #readObject(oid: string, depth: number): RawObject | undefined {
    if (depth > 64) return undefined;
    const loose = this.#readLoose(oid);
    if (loose) return loose;
    for (const pack of this.#packIndexes()) {
      const offset = findOffset(pack, oid);
      if (offset !== undefined) return this.#readPacked(pack, offset, depth);
    }
    return undefined;
  }

  #readLoose(oid: string): RawObject | undefined {
    let file: Buffer;
    try {
      file = readFileSync(join(this.#objects!, oid.slice(0, 2), oid.slice(2)));
    } catch {
      return undefined;
    }
    const raw = inflateSync(file);
    const space = raw.indexOf(0x20);
    const nul = raw.indexOf(0, space);
    const typeName = raw.subarray(0, space).toString('latin1');
    const type = Number(Object.entries(TYPE_NAMES).find(([, name]) => name === typeName)?.[0] ?? 0);
    return { type, data: raw.subarray(nul + 1) };
  }

  /** The size of a packed object: from its entry header, or for a delta from the delta's own header. */
  #packedSize(pack: PackIndex, offset: number): number | undefined {
    const entry = this.#bytesOf(pack).at(offset, ENTRY_HEAD_BYTES);
    const { type, size, pos } = packEntryHeader(entry, 0);
    if (type !== OBJ_OFS_DELTA && type !== OBJ_REF_DELTA) return size;
    // The delta data follows the base's offset (a varint) or id (20 bytes); it starts with the
    // base's size and the result's size.
    let at = pos;
    if (type === OBJ_OFS_DELTA) while (entry[at++] & 0x80);
    else at += 20;
    const delta = this.#bytesOf(pack).at(offset + at, 64);
    const head = inflateSync(delta, { finishFlush: zlib.Z_SYNC_FLUSH });
    return deltaSizes(head).result;
  }

  #readPacked(pack: PackIndex, offset: number, depth: number): RawObject | undefined {
    const key = `${pack.packPath}:${offset}`;
    const cached = this.#bases.get(key);
    if (cached) return cached;
    const bytes = this.#bytesOf(pack);
    const entry = bytes.at(offset, ENTRY_HEAD_BYTES);
    const header = packEntryHeader(entry, 0);
    const { type, size } = header;
    let { pos } = header;
    let byte: number;
    let base: RawObject | undefined;
    if (type === OBJ_OFS_DELTA) {
      byte = entry[pos++]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        byte = entry[pos++]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      base = this.#readPacked(pack, offset - back, depth + 1);
    } else if (type === OBJ_REF_DELTA) {
      base = this.#readObject(entry.subarray(pos, pos + 20).toString('hex'), depth + 1);
      pos += 20;
    }
    // Deflate never grows data by more than a few bytes per 16 KiB block; past the end of
    // the stream the inflater stops by itself.
    const inflated = inflateSync(bytes.at(offset + pos, size + 64 + (size >> 3)));
    if (inflated.length !== size) return undefined;
    let object: RawObject;
    if (type === OBJ_OFS_DELTA || type === OBJ_REF_DELTA) {
      if (!base) return undefined;
      object = { type: base.type, data: applyDelta(inflated, base.data) };
    } else {
      object = { type, data: inflated };
    }
    if (this.#bases.size >= BASE_CACHE_LIMIT) this.#bases.clear();
    this.#bases.set(key, object);
    return object;
  }

  #packIndexes(): PackIndex[] {
    this.#packs ??= packIndexes(this.#objects!, this.#cache);
    return this.#packs;
  }

  #bytesOf(pack: PackIndex): PackBytes {
    let bytes = this.#packBytes.get(pack);
    if (!bytes) this.#packBytes.set(pack, (bytes = new PackBytes(pack.packPath)));
    return bytes;
  }
}
