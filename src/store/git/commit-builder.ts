// The Git objects of a commit that changes one record file on top of a parent: the file's
// blob, the record folder's tree and the root tree with that one entry replaced, added or
// removed, and the commit. Only objects are written (unreachable until a ref names the
// commit, so harmless when the change goes no further), each flushed to disk before build()
// returns, so a ref may name the commit at once; which ref moves, and when, is the backend's
// business.
//
// A record folder holds one file per record: 10,000 entries for a large fleet. So the trees
// written are kept (by object id) and the next change starts from them instead of reading and
// inflating them again, and tree objects are encoded in one pass (format/tree-object.ts).
import * as fs from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { encodeCommit } from './format/commit-object.ts';
import { objectId, type ObjectType, writeLooseObject } from './format/loose-object.ts';
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
    const objects: { type: ObjectType; content: Buffer }[] = [];
    const add = (type: ObjectType, content: Buffer) => {
      objects.push({ type, content });
      return objectId(type, content);
    };
    const blob = change.text === null ? null : add('blob', Buffer.from(change.text));
    const tree = await this.#treeWith(parent, change.path, blob, add);
    const person = { name: this.#author.name, email: this.#author.email, timestamp: Math.floor(Date.now() / 1000) };
    const commit = add('commit', encodeCommit({ tree, parents: [parent], author: person, committer: person, message }));
    // Each object goes to a temporary file that is flushed and renamed: written side by side.
    const gitdir = join(this.#dir, '.git');
    await Promise.all(objects.map(({ type, content }) => writeLooseObject(gitdir, type, content)));
    return { commit, blob };
  }

  /** The parent's tree with the one file replaced, added (blob given) or removed (null). */
  async #treeWith(parent: string, path: string, blob: string | null, add: (type: ObjectType, content: Buffer) => string): Promise<string> {
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
    if (children.length > 0) insertSorted(newRoot, { mode: '040000', path: folder, oid: this.#tree(children, add), type: 'tree' });
    return this.#tree(newRoot, add);
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

  #tree(items: TreeItem[], add: (type: ObjectType, content: Buffer) => string): string {
    const oid = add('tree', encodeTree(items));
    this.#remember(oid, items);
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
