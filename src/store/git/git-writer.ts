// Writes one record file of a config repo and commits exactly that change, with
// isomorphic-git: the new commit's tree is the parent's tree with that one file replaced,
// added or removed (whatever else is staged or edited in the directory stays out of it);
// then the branch moves to the commit and the file's index entry is updated, so that
// `git status` stays clean. The index is written last, in one atomic rename, so a write that
// fails never leaves it changed; the file's previous content and the branch are put back.
// Objects already written are unreachable and harmless (git gc removes them).
//
// A record folder holds one file per record: 10,000 entries for a large fleet. So the trees
// a write produces are kept (by object id) and the next write starts from them instead of
// reading and inflating them again, tree objects are encoded here in one pass, and the index
// entry is patched in place (index-file.ts) instead of re-encoding the whole index.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { deflateSync } from 'node:zlib';
import git from 'isomorphic-git';
import { setIndexEntry } from './index-file.ts';

/** One entry of a Git tree object. */
interface TreeItem {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/** How many trees are kept: the root and the four record folders of the last commits. */
const TREE_CACHE_SIZE = 16;

export interface CommitAuthor {
  name: string;
  email: string;
}

/** Where a test may make a write fail: after the file is written, after the branch moved. */
export type FaultStage = 'after-file-write' | 'after-commit';
export type FaultInjection = (stage: FaultStage, path: string) => void | Promise<void>;

export interface FileChange {
  /** Path inside the repo: "<folder>/<file>". */
  path: string;
  /** The new content; null removes the file. */
  text: string | null;
  /** The file's content before the change (undefined: there was no file), restored on failure. */
  previous: Buffer | undefined;
}

export class GitWriter {
  readonly dir: string;
  readonly #author: CommitAuthor;
  readonly #cache: object;
  /** Tree object id -> its entries, in Git's order (most recently used last). */
  readonly #trees = new Map<string, TreeItem[]>();

  constructor(options: { dir: string; author: CommitAuthor; cache?: object }) {
    this.dir = resolve(options.dir);
    this.#author = options.author;
    this.#cache = options.cache ?? {};
  }

  /** The branch HEAD points to ("refs/heads/main"), or undefined when HEAD is detached. */
  async branch(): Promise<string | undefined> {
    return (await git.currentBranch({ fs, dir: this.dir, fullname: true })) ?? undefined;
  }

  /**
   * Writes the file and commits it on top of `parent` (the commit the change was computed
   * on; the branch must still point there). Returns the new commit id.
   */
  async commit(change: FileChange, message: string, parent: string, fault?: FaultInjection): Promise<string> {
    const full = this.#fullPath(change.path);
    const ref = await this.branch();
    if (!ref) throw new Error('HEAD is detached; check out a branch in the config repo');
    let touchedFile = false;
    let movedRef = false;
    try {
      touchedFile = true;
      if (change.text === null) {
        await rm(full, { force: true });
      } else {
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, change.text);
      }
      await fault?.('after-file-write', change.path);

      const { commit, blob } = await this.#writeCommitObjects(change, message, parent);
      const current = await git.resolveRef({ fs, dir: this.dir, ref });
      if (current !== parent) throw new Error(`${ref} moved to ${current} while the change was being written; try again`);
      await git.writeRef({ fs, dir: this.dir, ref, value: commit, force: true });
      movedRef = true;
      await fault?.('after-commit', change.path);
      await this.#updateIndex(change, full, blob);
      return commit;
    } catch (error) {
      await this.#rollback(change, full, { touchedFile, movedRef, ref, parent }).catch((rollbackError: unknown) => {
        (error as Error).message += `; putting the repo back also failed: ${(rollbackError as Error).message}`;
      });
      throw error;
    }
  }

  /** Puts the branch and the file back. (The index is written last and atomically: it was not changed.) */
  /**
   * Only the objects of a commit that changes one file on top of `parent`: no file, index or
   * ref is touched. A remote repository's writes use this; the commit becomes the branch only
   * once the remote has accepted it.
   */
  async commitObjects(change: { path: string; text: string | null }, message: string, parent: string): Promise<string> {
    this.#fullPath(change.path); // refuses anything that is not "<folder>/<file>"
    return (await this.#writeCommitObjects(change, message, parent)).commit;
  }

  async #writeCommitObjects(
    change: { path: string; text: string | null },
    message: string,
    parent: string,
  ): Promise<{ commit: string; blob: string | null }> {
    const blob = change.text === null ? null : await this.#writeObject('blob', Buffer.from(change.text));
    const tree = await this.#treeWith(parent, change.path, blob);
    const now = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    const person = { name: this.#author.name, email: this.#author.email, ...now };
    const commit = await git.writeCommit({
      fs,
      dir: this.dir,
      commit: { message, tree, parent: [parent], author: person, committer: person },
    });
    return { commit, blob };
  }

  async #rollback(
    change: FileChange,
    full: string,
    state: { touchedFile: boolean; movedRef: boolean; ref: string; parent: string },
  ): Promise<void> {
    if (state.movedRef) await git.writeRef({ fs, dir: this.dir, ref: state.ref, value: state.parent, force: true });
    if (state.touchedFile) {
      if (change.previous === undefined) await rm(full, { force: true });
      else await writeFile(full, change.previous);
    }
  }

  /** The file's index entry: the new blob with the file's stat, or none after a delete. */
  async #updateIndex(change: FileChange, full: string, blob: string | null): Promise<void> {
    const entry = blob === null ? null : { oid: blob, stats: await stat(full, { bigint: true }) };
    await setIndexEntry(join(this.dir, '.git'), change.path, entry);
  }

  /** The parent's tree with the one file replaced, added (blob given) or removed (null). */
  async #treeWith(parent: string, path: string, blob: string | null): Promise<string> {
    const [folder, name] = path.split('/') as [string, string];
    const { commit } = await git.readCommit({ fs, dir: this.dir, oid: parent, cache: this.#cache });
    const root = await this.#readTree(commit.tree);
    const folderEntry = root.find((e) => e.path === folder);
    const entries = folderEntry?.type === 'tree' ? await this.#readTree(folderEntry.oid) : [];

    const children = [...entries];
    const at = children.findIndex((e) => e.path === name);
    if (blob === null) {
      if (at !== -1) children.splice(at, 1);
    } else if (at !== -1) {
      children[at] = { mode: children[at]!.mode === '100755' ? '100755' : '100644', path: name, oid: blob, type: 'blob' };
    } else {
      insertSorted(children, { mode: '100644', path: name, oid: blob, type: 'blob' });
    }

    const newRoot = root.filter((e) => e.path !== folder);
    if (children.length > 0) insertSorted(newRoot, { mode: '040000', path: folder, oid: await this.#writeTree(children), type: 'tree' });
    return this.#writeTree(newRoot);
  }

  async #readTree(oid: string): Promise<TreeItem[]> {
    const known = this.#trees.get(oid);
    if (known) {
      this.#remember(oid, known);
      return known;
    }
    const { tree } = await git.readTree({ fs, dir: this.dir, oid, cache: this.#cache });
    const items = tree.map((e) => ({ mode: e.mode, path: e.path, oid: e.oid, type: e.type }));
    this.#remember(oid, items);
    return items;
  }

  async #writeTree(items: TreeItem[]): Promise<string> {
    const oid = await this.#writeObject('tree', encodeTree(items));
    this.#remember(oid, items);
    return oid;
  }

  /**
   * Stores an object through isomorphic-git, hashed and compressed here with Node's native
   * zlib at Git's own level for loose objects (core.looseCompression = 1): a folder's tree
   * is half a megabyte on a large fleet.
   */
  async #writeObject(type: 'blob' | 'tree', content: Buffer): Promise<string> {
    const wrapped = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    const oid = createHash('sha1').update(wrapped).digest('hex');
    const object = deflateSync(wrapped, { level: 1 });
    await git.writeObject({ fs, dir: this.dir, type, format: 'deflated', oid, object });
    return oid;
  }

  #remember(oid: string, items: TreeItem[]): void {
    this.#trees.delete(oid);
    this.#trees.set(oid, items);
    if (this.#trees.size > TREE_CACHE_SIZE) this.#trees.delete(this.#trees.keys().next().value!);
  }

  /** The absolute path of a record file; refuses anything that is not "<folder>/<file>" inside the repo. */
  #fullPath(path: string): string {
    const parts = path.split('/');
    if (parts.length !== 2 || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\'))) {
      throw new Error(`refusing to write "${path}": not a record file path`);
    }
    const full = resolve(join(this.dir, path));
    if (!full.startsWith(this.dir + sep)) throw new Error(`refusing to write "${path}": outside the config repo`);
    return full;
  }
}

/** Git's order of tree entries: by name bytes, a folder's name compared as if it ended in "/". */
function treeKey(item: TreeItem): Buffer {
  return Buffer.from(item.type === 'tree' ? `${item.path}/` : item.path, 'utf8');
}

function insertSorted(items: TreeItem[], item: TreeItem): void {
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

/** The content of a tree object: "<mode> <name>\0<20-byte id>" per entry, in the order given. */
function encodeTree(items: TreeItem[]): Buffer {
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
