// Git tree objects: "<mode> <name>\0<20-byte id>" per entry, entries in Git's order (by name
// bytes, a folder's name compared as if it ended in "/").

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

/** Inserts `item` at its place in Git's order. */
export function insertSorted(items: TreeItem[], item: TreeItem): void {
  const key = treeKey(item);
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (Buffer.compare(treeKey(items[mid]!), key) < 0) low = mid + 1;
    else high = mid;
  }
  items.splice(low, 0, item);
}

/** Each entry's encoded form, kept with the entry: trees of one folder share most entries. */
const encodedEntries = new WeakMap<TreeItem, Buffer>();

/** The content of a tree object with `items`, in the order given. */
export function encodeTree(items: readonly TreeItem[]): Buffer {
  return Buffer.concat(
    items.map((item) => {
      let encoded = encodedEntries.get(item);
      if (!encoded) {
        // Git writes a folder's mode without the leading zero.
        const head = Buffer.from(`${item.mode.replace(/^0+/, '')} ${item.path}\0`, 'utf8');
        encoded = Buffer.concat([head, Buffer.from(item.oid, 'hex')]);
        encodedEntries.set(item, encoded);
      }
      return encoded;
    }),
  );
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
