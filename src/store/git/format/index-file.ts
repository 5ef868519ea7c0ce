// Sets or removes one entry of a Git index file's bytes (.git/index) without decoding and
// re-encoding the other entries: on a repo of 10,000 record files, re-serializing the whole
// index entry by entry costs more than everything else a REST write does. The bytes are
// patched as they are (format versions 2 and 3); its extensions are kept or dropped by git's
// rule for them (./index-extensions.ts). Reading and writing the file, under .git/index.lock
// as git itself does, is ../files/index-file-access.ts's.
//
// An index a write must not go through is refused, typed (IndexNotWritable), before anything
// is touched: one whose trailing checksum does not match its content (damaged: rewriting it
// would make the damage look whole), one with unmerged entries (stages 1-3: a person in the
// middle of a merge, whose conflicts a stage-0 entry would silently resolve), and one in a
// form this code does not patch (version 4, a split or a sparse index, an extension that
// must be kept but is not known), with a message saying how to convert it.
import { sharesBytes } from './tree-object.ts';
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { describeRequiredExtension, sortExtensions } from './index-extensions.ts';
import { prefixHashed, type PrefixHashes } from './prefix-hashes.ts';

export interface IndexEntryData {
  /** Blob id (40 hex digits). */
  oid: string;
  /** The working-tree file's stat, so that git sees the file as unchanged. */
  stats: BigIntStats;
}

const HEADER = 12;
const FIXED = 62; // stat fields (40) + object id (20) + flags (2)
/** The SHA-1 at the end of the file, over everything before it. */
export const INDEX_CHECKSUM_BYTES = 20;
const CHECKSUM = INDEX_CHECKSUM_BYTES;

/**
 * Why a write may not go through the index: `damaged` (its checksum or its structure is
 * wrong), `unmerged` (it holds conflict stages) — both states a person's git commands end —
 * or `unsupported` (a form this code does not patch, until the repository is converted).
 */
export type IndexRefusal = 'damaged' | 'unmerged' | 'unsupported';

export class IndexNotWritable extends Error {
  readonly kind: IndexRefusal;

  constructor(kind: IndexRefusal, message: string) {
    super(message);
    this.name = 'IndexNotWritable';
    this.kind = kind;
  }
}

const HOW_TO_CONVERT =
  'run "git update-index --index-version 2 --no-split-index" in the config repo (and do not set index.version=4, ' +
  'feature.manyFiles or core.splitIndex there)';
const HOW_TO_UNSPARSE =
  'run "git sparse-checkout init --no-sparse-index" in the config repo (a sparse checkout may stay; do not set ' +
  'index.sparse there)';
const HOW_TO_REBUILD =
  'rebuild it from HEAD to allow writes: rm "$(git rev-parse --git-path index)" && git reset (what was staged is ' +
  'then unstaged)';

const damaged = (why: string) =>
  new IndexNotWritable('damaged', `the Git index is damaged (${why}; "git fsck" reports it too); ${HOW_TO_REBUILD}`);
const unmerged = (path: Buffer) =>
  new IndexNotWritable(
    'unmerged',
    `the Git index has unmerged entries (a merge in progress? "${path.toString('utf8')}" is in conflict): finish it ` +
      `(resolve and commit) or abort it (git merge --abort) to allow writes`,
  );

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
  /** The extensions a patched index keeps after its entries (./index-extensions.ts). */
  extensions: Buffer;
  /** The SHA-1 states of its content, when this code wrote it: the next patch's checksum resumes from them. */
  hashes?: PrefixHashes;
}

/**
 * Finds where each entry starts, after checking the index may be patched: throws
 * IndexNotWritable for a damaged index, one with unmerged entries, or a form this code does
 * not patch.
 */
export function indexLayout(index: Buffer): IndexLayout {
  if (index.length < HEADER + CHECKSUM || index.toString('latin1', 0, 4) !== 'DIRC') {
    throw damaged('it does not start with an index header');
  }
  const end = index.length - CHECKSUM;
  // The checksum is all zeros when git was told to skip it (index.skipHash); git accepts that.
  const stored = index.subarray(end);
  if (stored.some((byte) => byte !== 0) && !createHash('sha1').update(index.subarray(0, end)).digest().equals(stored)) {
    throw damaged('its checksum does not match its content');
  }
  const version = index.readUInt32BE(4);
  if (version !== 2 && version !== 3) {
    throw new IndexNotWritable(
      'unsupported',
      `the Git index is of version ${version}, which crud mode cannot update; ${HOW_TO_CONVERT}`,
    );
  }
  const count = index.readUInt32BE(8);
  const starts = new Uint32Array(count);
  let offset = HEADER;
  let conflicted: number | undefined;
  for (let i = 0; i < count; i++) {
    if (offset + FIXED > end) throw damaged('an entry runs past its end');
    starts[i] = offset;
    const flags = index.readUInt16BE(offset + 60);
    const extended = (flags & 0x4000) !== 0;
    if (extended && version < 3) throw damaged('a version-2 entry has extended flags');
    if (flags & 0x3000) conflicted ??= offset;
    const pathEnd = index.indexOf(0, offset + FIXED + (extended ? 2 : 0));
    if (pathEnd === -1 || pathEnd >= end) throw damaged('an entry runs past its end');
    offset += (pathEnd - offset + 8) & ~7;
  }
  if (offset > end) throw damaged('an entry runs past its end');
  const extensions = sortExtensions(index, offset, end);
  if ('damaged' in extensions) throw damaged('its extensions do not fit between the entries and the checksum');
  if ('required' in extensions) {
    const how = extensions.required === 'sdir' ? HOW_TO_UNSPARSE : HOW_TO_CONVERT;
    throw new IndexNotWritable(
      'unsupported',
      `the Git index is ${describeRequiredExtension(extensions.required)}, which crud mode cannot update; ${how}`,
    );
  }
  if (conflicted !== undefined) throw unmerged(entryPath(index, conflicted));
  return { bytes: index, starts, entriesEnd: offset, extensions: extensions.kept };
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
    if (Buffer.compare(entryPath(layout.bytes, layout.starts[mid]), target) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The entries of `path` (all its stages): [first, end) in entry numbers. */
function entriesOf(layout: IndexLayout, target: Buffer): [number, number] {
  const first = firstAtOrAfter(layout, target);
  let end = first;
  while (end < layout.starts.length && Buffer.compare(entryPath(layout.bytes, layout.starts[end]), target) === 0) end++;
  return [first, end];
}

/** One entry to set (or, with null, to remove) in a patch of the index. */
export interface IndexPatch {
  path: string;
  entry: IndexEntryData | null;
}

/**
 * The index with `path`'s entry set to `entry`, or removed when `entry` is null. Throws
 * IndexNotWritable for an index a write must not go through. The extensions the layout keeps
 * follow the entries; the others are dropped (git rebuilds them).
 */
export function patchIndex(index: Buffer | IndexLayout, path: string, entry: IndexEntryData | null): IndexLayout {
  return patchIndexEntries(index, [{ path, entry }]);
}

/**
 * The index with every patch applied (each path once): the bytes between the patched entries
 * are copied once and the checksum computed once, however many files a commit changes.
 * `scratch`: a buffer nothing else uses any more (an index two writes old), written into when
 * it is of the new index's size, which it is whenever no entry is added or removed: a fleet's
 * index is megabytes, and a new buffer of that size each write costs more (fresh pages, the
 * collector's work for outside memory) than the copy.
 */
export function patchIndexEntries(
  index: Buffer | IndexLayout,
  patches: readonly IndexPatch[],
  scratch?: Buffer,
): IndexLayout {
  const layout = Buffer.isBuffer(index) ? indexLayout(index) : index;
  const { bytes, starts, entriesEnd, extensions } = layout;
  const at = (i: number) => (i < starts.length ? starts[i] : entriesEnd);
  const sorted = patches
    .map(({ path, entry }) => ({ target: Buffer.from(path, 'utf8'), entry }))
    .sort((a, b) => Buffer.compare(a.target, b.target));
  const spans = sorted.map(({ target, entry }, i) => {
    if (i > 0 && sorted[i - 1].target.equals(target))
      throw new Error(`the index is patched once per path: ${target.toString('utf8')}`);
    const [first, end] = entriesOf(layout, target);
    return { first, end, replacement: entry ? encodeEntry(target, entry) : Buffer.alloc(0), added: entry ? 1 : 0 };
  });
  // One buffer for the whole new index, checksum included (a fleet's index is a megabyte).
  let newEntriesEnd = entriesEnd;
  let count = starts.length;
  for (const span of spans) {
    newEntriesEnd += span.replacement.length - (at(span.end) - at(span.first));
    count += span.added - (span.end - span.first);
  }
  const length = newEntriesEnd + extensions.length;
  const reusable = scratch?.length === length + CHECKSUM && !sharesBytes(scratch, bytes);
  const out = reusable ? scratch : Buffer.allocUnsafe(length + CHECKSUM);
  // No entry moved: the new index's entries start where the old one's do.
  const unmoved = spans.every(
    (span) => span.replacement.length === at(span.end) - at(span.first) && span.end - span.first === span.added,
  );
  const next = unmoved ? starts : new Uint32Array(count);
  let copiedTo = 0; // entries of the old index copied so far
  let written = HEADER; // bytes of the new index written so far
  let nextEntry = 0;
  bytes.copy(out, 0, 0, HEADER);
  const copyEntries = (until: number) => {
    const shift = written - at(copiedTo);
    if (unmoved) nextEntry += until - copiedTo;
    else for (let i = copiedTo; i < until; i++) next[nextEntry++] = starts[i] + shift;
    written += bytes.copy(out, written, at(copiedTo), at(until));
    copiedTo = until;
  };
  for (const span of spans) {
    copyEntries(span.first);
    if (span.added && !unmoved) next[nextEntry] = written;
    nextEntry += span.added;
    written += span.replacement.copy(out, written);
    copiedTo = span.end;
  }
  copyEntries(starts.length);
  extensions.copy(out, newEntriesEnd);
  out.writeUInt32BE(count, 8);
  // Up to the first patched entry the new index is the old one — unless an entry came or
  // went, which changes the count in the header: the checksum resumes from there.
  const same = unmoved ? (spans.length > 0 ? at(spans[0].first) : length) : 8;
  const { id, hashes } = prefixHashed([out.subarray(0, length)], layout.hashes && { previous: layout.hashes, same });
  out.write(id, length, 'hex');
  return {
    bytes: out,
    starts: next,
    entriesEnd: newEntriesEnd,
    extensions: out.subarray(newEntriesEnd, length),
    hashes,
  };
}

/** The object id of `path`'s stage-0 entry, or undefined when the index has none. */
export function indexEntryOid(index: Buffer, path: string): string | undefined {
  const layout = indexLayout(index);
  const [first, end] = entriesOf(layout, Buffer.from(path, 'utf8'));
  if (first === end) return undefined;
  const start = layout.starts[first];
  return index.toString('hex', start + 40, start + 60);
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
