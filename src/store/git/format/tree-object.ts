// Git tree objects: "<mode> <name>\0<20-byte id>" per entry, entries in Git's order (by name
// bytes, a folder's name compared as if it ended in "/").
import { adler32, adler32Replaced } from './adler32.ts';
import { objectHeader } from './object-id.ts';
import { type HashResume, prefixHashed, type PrefixHashes } from './prefix-hashes.ts';

/** One entry of a Git tree object. */
export interface TreeItem {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

function treeKey(item: TreeItem): Buffer {
  return Buffer.from(item.type === 'tree' ? `${item.path}/` : item.path, 'utf8');
}

/** Where `item` goes among `items`, in Git's order. */
export function insertionPoint(items: readonly TreeItem[], item: TreeItem): number {
  const key = treeKey(item);
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (Buffer.compare(treeKey(items[mid]), key) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Where the entry named `name` is among `items` (a file's or a folder's), or -1: found by its
 * place in Git's order, so a folder of 50,000 records is not walked for one name. A tree out of
 * Git's order (no Git writes one, but a tool might) is walked after all before -1 is believed,
 * so that a write never adds a name twice.
 */
export function entryIndex(items: readonly TreeItem[], name: string): number {
  for (const type of ['blob', 'tree'] as const) {
    const at = insertionPoint(items, { mode: '', path: name, oid: '', type });
    if (at < items.length && items[at].path === name) return at;
  }
  return items.findIndex((e) => e.path === name);
}

/** Inserts `item` at its place in Git's order. */
export function insertSorted(items: TreeItem[], item: TreeItem): void {
  items.splice(insertionPoint(items, item), 0, item);
}

/** Each entry's encoded form, kept with the entry: trees of one folder share most entries. */
const encodedEntries = new WeakMap<TreeItem, Buffer>();

/**
 * Entries' bytes are cut from buffers of their own, not from Node's shared pool (which
 * Buffer.from and Buffer.concat use for small buffers): an entry lives as long as its tree item,
 * and a view of 60 bytes keeps the whole 64 KiB pool buffer it is in. Each write's new entry
 * kept one pool buffer of otherwise short-lived bytes: 64 KiB a write, until the file is
 * written again. Here a buffer holds entries only, about 270 of them.
 */
const ARENA_BYTES = 16 * 1024;
let arena = Buffer.allocUnsafeSlow(0);
let arenaUsed = 0;

function entryBytes(length: number): Buffer {
  if (arenaUsed + length > arena.length) {
    arena = Buffer.allocUnsafeSlow(Math.max(ARENA_BYTES, length));
    arenaUsed = 0;
  }
  arenaUsed += length;
  return arena.subarray(arenaUsed - length, arenaUsed);
}

/** One entry as a tree object holds it: "<mode> <name>\0<20-byte id>". */
export function encodeTreeEntry(item: TreeItem): Buffer {
  let encoded = encodedEntries.get(item);
  if (!encoded) {
    // Git writes a folder's mode without the leading zero.
    const head = `${item.mode.replace(/^0+/, '')} ${item.path}\0`;
    const headBytes = Buffer.byteLength(head, 'utf8');
    encoded = entryBytes(headBytes + item.oid.length / 2);
    encoded.write(head, 0, 'utf8');
    encoded.write(item.oid, headBytes, 'hex');
    encodedEntries.set(item, encoded);
  }
  return encoded;
}

/** The content of a tree object with `items`, in the order given. */
export function encodeTree(items: readonly TreeItem[]): Buffer {
  return Buffer.concat(items.map(encodeTreeEntry));
}

/**
 * A tree with its encoded bytes and where each entry ends in them: one entry can be swapped without encoding the
 * others.
 */
export interface EncodedTree {
  items: TreeItem[];
  bytes: Buffer;
  /** ends[i]: the offset just past entry i. */
  ends: Uint32Array;
  /**
   * The Adler-32 of `bytes`, once asked for (treeChecksum): what the zlib stream of a large
   * tree ends with. A splice that swaps an entry for one of the same length carries it over.
   */
  checksum?: number;
  /** The SHA-1 states of the object (header and bytes), once its id was asked for (treeObjectId). */
  hashes?: PrefixHashes;
  /** The tree it was spliced from, equal to it up to some byte: where its id's hashing resumes. */
  hashFrom?: HashResume;
}

/** The Adler-32 of the tree's bytes, worked out once and kept with it. */
export function treeChecksum(tree: EncodedTree): number {
  tree.checksum ??= adler32([tree.bytes]);
  return tree.checksum;
}

/**
 * The tree's object id. Its hash states are kept with it, so that the id of a tree spliced
 * from it hashes only the bytes from the splice on.
 */
export function treeObjectId(tree: EncodedTree): string {
  const header = Buffer.from(objectHeader('tree', tree.bytes.length));
  const { id, hashes } = prefixHashed([header, tree.bytes], tree.hashFrom);
  tree.hashes = hashes;
  tree.hashFrom = undefined;
  return id;
}

export function encodedTree(items: TreeItem[]): EncodedTree {
  const parts = items.map(encodeTreeEntry);
  const ends = new Uint32Array(items.length);
  let offset = 0;
  parts.forEach((part, i) => {
    offset += part.length;
    ends[i] = offset;
  });
  return { items, bytes: Buffer.concat(parts, offset), ends };
}

/**
 * `tree` with `remove` entries at `at` taken out and `item` (if any) put in their place: the
 * bytes around them are copied, not encoded again (a folder of 10,000 records is a tree of
 * half a megabyte, changed one entry per write). `scratch`: a tree nothing uses any more,
 * whose buffers are written over when they are of the new tree's sizes (an entry replaced
 * by one of the same length, as a write to a record does): a new buffer of megabytes each
 * write costs more than the copy (fresh pages, the collector's work for outside memory).
 */
export function spliceTree(
  tree: EncodedTree,
  at: number,
  remove: number,
  item?: TreeItem,
  scratch?: EncodedTree,
): EncodedTree {
  const start = at === 0 ? 0 : tree.ends[at - 1];
  const end = remove === 0 ? start : tree.ends[at + remove - 1];
  const inserted = item ? encodeTreeEntry(item) : Buffer.alloc(0);
  const size = tree.bytes.length - (end - start) + inserted.length;
  const count = tree.items.length - remove + (item ? 1 : 0);
  const reuse =
    scratch !== undefined &&
    scratch !== tree &&
    scratch.bytes.length === size &&
    scratch.items.length === count &&
    !sharesBytes(scratch.bytes, tree.bytes);
  // A record's entry swapped for one of the same length (a write to it): the checksum follows
  // from the bytes that changed, read before the scratch's bytes are written over.
  const checksum =
    tree.checksum !== undefined && inserted.length === end - start
      ? adler32Replaced(tree.checksum, tree.bytes.length, start, tree.bytes.subarray(start, end), inserted)
      : undefined;
  const bytes = reuse ? scratch.bytes : Buffer.allocUnsafe(size);
  tree.bytes.copy(bytes, 0, 0, start);
  inserted.copy(bytes, start);
  tree.bytes.copy(bytes, start + inserted.length, end);
  let items: TreeItem[];
  if (reuse && remove === (item ? 1 : 0)) {
    items = scratch.items;
    for (let i = 0; i < count; i++) items[i] = tree.items[i];
    if (item) items[at] = item;
  } else {
    items = [...tree.items];
    if (item) items.splice(at, remove, item);
    else items.splice(at, remove);
  }
  const shift = inserted.length - (end - start);
  const ends = reuse ? scratch.ends : new Uint32Array(count);
  ends.set(tree.ends.subarray(0, at));
  if (item) ends[at] = start + inserted.length;
  const after = tree.ends.subarray(at + remove);
  const from = at + (item ? 1 : 0);
  if (shift === 0) ends.set(after, from);
  else for (let i = 0; i < after.length; i++) ends[from + i] = after[i] + shift;
  // Of the same length, the object's header is the same too: equal up to the splice.
  const header = objectHeader('tree', size).length;
  const hashFrom =
    tree.hashes && size === tree.bytes.length ? { previous: tree.hashes, same: header + start } : undefined;
  return { items, bytes, ends, checksum, hashFrom };
}

/** Whether two buffers share any byte of memory (small buffers are cut from one shared pool). */
export function sharesBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.length && b.byteOffset < a.byteOffset + a.length;
}

/** The entries of a tree object's content; undefined when it is not a well-formed tree. */
export function decodeTree(data: Buffer): TreeItem[] | undefined {
  const items: TreeItem[] = [];
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    const nul = data.indexOf(0, space + 1);
    if (space === -1 || nul === -1 || nul + 21 > data.length) return undefined;
    const mode = data.toString('latin1', pos, space).padStart(6, '0');
    const path = data.toString('utf8', space + 1, nul);
    const oid = data.toString('hex', nul + 1, nul + 21);
    items.push({ mode, path, oid, type: mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob' });
    pos = nul + 21;
  }
  return items;
}
