// The extensions that follow an index's entries (gitformat-index(5)): each is a 4-byte
// signature, a 32-bit size and that many bytes. Git's own rule says what a writer may do
// with one it does not maintain: a signature starting with an uppercase letter ('A'..'Z') is
// an optional cache that may be dropped (git rebuilds it when it wants it); any other is
// required, and an index holding one must not be rewritten without it.
//
// What a write here does with each, having changed one path's entry:
// - REUC (resolve undo) is kept: it names paths, not entry positions, so it stays true when
//   entries are added or removed, and `git checkout -m <path>` still recreates a resolved
//   conflict from it.
// - Every other optional one is dropped, each for a reason: TREE (the cache tree) holds the
//   tree ids of the folders the changed path is in, now wrong; UNTR (untracked cache) lists
//   each folder's files that are not in the index, which a new record file just joined;
//   FSMN (fsmonitor) marks entries valid by position,
//   which shifts; EOIE and IEOT give entry offsets, which move; and one not known here
//   cannot be known to still be true.
// - Required ones are refused: `link` (a split index: the entries are changes to a shared
//   index file, by position), `sdir` (a sparse index: folders stand for the entries under
//   them), and any other git may define later.
const KEPT = new Set(['REUC']);

export type ExtensionsVerdict =
  /** The extensions the new index keeps, as bytes, in their order. */
  | { kept: Buffer }
  /** A required extension: the index must not be rewritten here. */
  | { required: string }
  /** The extensions do not add up to the space between the entries and the checksum. */
  | { damaged: true };

/** What becomes of the extensions in `index` between `from` (the entries' end) and `end` (the checksum). */
export function sortExtensions(index: Buffer, from: number, end: number): ExtensionsVerdict {
  const kept: Buffer[] = [];
  let at = from;
  while (at < end) {
    if (at + 8 > end) return { damaged: true };
    const signature = index.toString('latin1', at, at + 4);
    const next = at + 8 + index.readUInt32BE(at + 4);
    if (next > end) return { damaged: true };
    const optional = signature.charCodeAt(0) >= 0x41 && signature.charCodeAt(0) <= 0x5a;
    if (!optional) return { required: signature };
    if (KEPT.has(signature)) kept.push(index.subarray(at, next));
    at = next;
  }
  return { kept: kept.length === 1 ? kept[0] : Buffer.concat(kept) };
}

/** What a required extension is, for a message saying why writes are refused. */
export function describeRequiredExtension(signature: string): string {
  if (signature === 'link') return 'split (core.splitIndex)';
  if (signature === 'sdir') return 'sparse (index.sparse)';
  return `extended with "${signature}", an extension that must be kept but is not known here`;
}
