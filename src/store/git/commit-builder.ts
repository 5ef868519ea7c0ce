// The Git objects of a commit that changes one record file on top of a parent: the file's
// blob, the record folder's tree and the root tree with that one entry replaced, added or
// removed, and the commit. Only objects are written (unreachable until a ref names the
// commit, so harmless when the change goes no further); which ref moves, and when, is the
// backend's business.
//
// A record folder holds one file per record: 10,000 entries for a large fleet. So the trees
// written are kept (by object id) and the next change starts from them instead of reading and
// inflating them again, and tree objects are encoded in one pass (format/tree-object.ts).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { deflateSync } from 'node:zlib';
import git from 'isomorphic-git';
import { encodeTree, insertSorted, type TreeItem } from './format/tree-object.ts';

/** How many trees are kept: the root and the four record folders of the last commits. */
const TREE_CACHE_SIZE = 16;

export interface CommitAuthor {
  name: string;
  email: string;
}

export interface FileContent {
  /** Path inside the repo: "<folder>/<file>". */
  path: string;
  /** The new content; null removes the file. */
  text: string | null;
}

export class CommitBuilder {
  readonly #dir: string;
  readonly #author: CommitAuthor;
  readonly #cache: object;
  /** Tree object id -> its entries, in Git's order (most recently used last). */
  readonly #trees = new Map<string, TreeItem[]>();

  constructor(options: { dir: string; author: CommitAuthor; cache?: object }) {
    this.#dir = options.dir;
    this.#author = options.author;
    this.#cache = options.cache ?? {};
  }

  /** Writes the objects of `change` on top of `parent`; returns the commit id and the file's blob id (null for a removal). */
  async build(change: FileContent, message: string, parent: string): Promise<{ commit: string; blob: string | null }> {
    assertRecordPath(change.path);
    const blob = change.text === null ? null : await this.#writeObject('blob', Buffer.from(change.text));
    const tree = await this.#treeWith(parent, change.path, blob);
    const now = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    const person = { name: this.#author.name, email: this.#author.email, ...now };
    const commit = await git.writeCommit({
      fs,
      dir: this.#dir,
      commit: { message, tree, parent: [parent], author: person, committer: person },
    });
    return { commit, blob };
  }

  /** The parent's tree with the one file replaced, added (blob given) or removed (null). */
  async #treeWith(parent: string, path: string, blob: string | null): Promise<string> {
    const [folder, name] = path.split('/') as [string, string];
    const { commit } = await git.readCommit({ fs, dir: this.#dir, oid: parent, cache: this.#cache });
    const root = await this.#readTree(commit.tree);
    const folderEntry = root.find((e) => e.path === folder);
    const children = folderEntry?.type === 'tree' ? [...(await this.#readTree(folderEntry.oid))] : [];

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
    const { tree } = await git.readTree({ fs, dir: this.#dir, oid, cache: this.#cache });
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
    await git.writeObject({ fs, dir: this.#dir, type, format: 'deflated', oid, object });
    return oid;
  }

  #remember(oid: string, items: TreeItem[]): void {
    this.#trees.delete(oid);
    this.#trees.set(oid, items);
    if (this.#trees.size > TREE_CACHE_SIZE) this.#trees.delete(this.#trees.keys().next().value!);
  }
}

/** Refuses anything that is not "<folder>/<file>": the service writes nowhere else. */
export function assertRecordPath(path: string): void {
  const parts = path.split('/');
  if (parts.length !== 2 || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\'))) {
    throw new Error(`refusing to write "${path}": not a record file path`);
  }
}
