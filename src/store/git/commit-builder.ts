// The Git objects of a commit that changes record files on top of a parent (one for a REST
// write, several for a change set): the files' blobs, each changed record folder's tree and
// the root tree with those entries replaced, added or removed, and the commit. Only objects are written (unreachable
// until a ref names the
// commit, so harmless when the change goes no further), each flushed to disk before build()
// returns, so a ref may name the commit at once; which ref moves, and when, is the backend's
// business.
//
// A record folder holds one file per record: 10,000 entries for a large fleet. So the trees
// written are kept (by object id) and the next change starts from them instead of reading and
// inflating them again, and tree objects are encoded in one pass (format/tree-object.ts).
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { encodeCommit } from './format/commit-object.ts';
import { sharedGitDir } from './git-directory.ts';
import { writeLooseObject } from './files/loose-object.ts';
import { fileWrites } from '../record-files/read-pool.ts';
import { SliceTimer } from '../runner/event-loop.ts';
import { objectId, type ObjectType } from './format/object-id.ts';
import {
  type EncodedTree,
  encodedTree,
  entryIndex,
  insertionPoint,
  insertSorted,
  spliceTree,
  treeChecksum,
  type TreeItem,
  treeObjectId,
} from './format/tree-object.ts';

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

/** The objects of a commit, built: their ids now, and a promise that they are all on disk. */
export interface BuiltCommit {
  commit: string;
  /** Each file's blob after the commit, in the order given (null: removed). */
  blobs: (string | null)[];
  /** Settles once every object is written and flushed; a ref may name `commit` only after it resolves. */
  written: Promise<void>;
  /** Each file's blob in the parent commit, if it had the file: objects the store holds already. */
  parentBlobs: (string | undefined)[];
}

/**
 * Adds an object to the commit being built and returns its id (`id`, when the caller worked
 * it out already); `checksum` as for writeLooseObject.
 */
type AddObject = (type: ObjectType, content: Buffer, checksum?: () => number, id?: string) => string;

export class CommitBuilder {
  readonly #dir: string;
  readonly #author: CommitAuthor;
  readonly #cache: object;
  /** Tree object id -> its entries and bytes, in Git's order (most recently used last). */
  readonly #trees = new Map<string, EncodedTree>();
  /** Commit id -> its tree id, for the commits built or read last (the next parent is usually one of them). */
  readonly #commitTrees = new Map<string, string>();
  /** The bytes of objects whose writing has not settled: no tree made of them is written over. */
  readonly #writing = new Set<Buffer>();
  /** A tree dropped from the cache, nothing writing it: its buffers are the next tree's, when of its size. */
  #scratch: EncodedTree | undefined;

  /**
   * The service: the committer of every commit built, their author unless a person made the
   * change, and who moves the branch, in the reflog.
   */
  get author(): CommitAuthor {
    return this.#author;
  }

  constructor(options: { dir: string; author: CommitAuthor; cache?: object }) {
    this.#dir = options.dir;
    this.#author = options.author;
    this.#cache = options.cache ?? {};
  }

  /**
   * The objects of `files` (each path once) on top of `parent`. Their ids are known at once;
   * they are written (compressed on the thread pool, each to a flushed temporary file renamed
   * into place) in the background while the caller goes on, and `written` says when. `author`
   * is who made the change when it is not the service itself (a person); the service commits
   * it either way.
   */
  async build(
    files: readonly FileContent[],
    message: string,
    parent: string,
    author: CommitAuthor = this.#author,
  ): Promise<BuiltCommit> {
    for (const file of files) assertRecordPath(file.path);
    if (new Set(files.map((f) => f.path)).size !== files.length) throw new Error('a commit names each file once');
    const objects: { type: ObjectType; content: Buffer; oid: string; checksum?: () => number }[] = [];
    const add: AddObject = (type, content, checksum, id) => {
      const oid = id ?? objectId(type, content);
      objects.push({ type, content, oid, checksum });
      return oid;
    };
    // 1,000 files are tens of milliseconds of encoding and hashing: polls are let in meanwhile.
    const slices = new SliceTimer();
    const blobs: (string | null)[] = [];
    for (const file of files) {
      blobs.push(file.text === null ? null : add('blob', Buffer.from(file.text)));
      await slices.turnIfDue();
    }
    const { tree, parentBlobs } = await this.#treeWith(parent, files, blobs, add, slices);
    const timestamp = Math.floor(Date.now() / 1000);
    const committer = { name: this.#author.name, email: this.#author.email, timestamp };
    const commit = add(
      'commit',
      encodeCommit({
        tree,
        parents: [parent],
        author: { name: author.name, email: author.email, timestamp },
        committer,
        message,
      }),
    );
    this.#rememberCommit(commit, tree);
    const gitdir = sharedGitDir(this.#dir);
    for (const { content } of objects) this.#writing.add(content);
    // Each object's bytes are another tree's to write into only once its write, tries again included, has settled.
    const written = Promise.all(
      objects.map(({ type, content, oid, checksum }) =>
        fileWrites
          .run(() => writeLooseObject(gitdir, type, content, oid, checksum))
          .finally(() => this.#writing.delete(content)),
      ),
    ).then(() => undefined);
    // Awaited later by the caller; a failure meanwhile must not count as unhandled.
    written.catch(() => undefined);
    return { commit, blobs, written, parentBlobs };
  }

  /**
   * The parent's tree with each file replaced, added (blob given) or removed (null); each changed folder's tree written
   * once.
   */
  async #treeWith(
    parent: string,
    files: readonly FileContent[],
    blobs: readonly (string | null)[],
    add: AddObject,
    slices: SliceTimer,
  ): Promise<{ tree: string; parentBlobs: (string | undefined)[] }> {
    const root = await this.#readTree(await this.#treeOf(parent));
    const parentBlobs: (string | undefined)[] = [];
    /** Each changed folder's tree before the commit, and the new blobs of its entries by name. */
    const edits = new Map<string, { children: EncodedTree; blobs: Map<string, string | null> }>();
    for (const [i, file] of files.entries()) {
      const [folder, name] = file.path.split('/') as [string, string];
      let edit = edits.get(folder);
      if (!edit) {
        const folderEntry = root.items.find((e) => e.path === folder);
        const children = folderEntry?.type === 'tree' ? await this.#readTree(folderEntry.oid) : encodedTree([]);
        edit = { children, blobs: new Map() };
        edits.set(folder, edit);
      }
      // Found by its place, not by a map of the folder: a write costs what it changes.
      const at = entryIndex(edit.children.items, name);
      parentBlobs.push(at === -1 ? undefined : edit.children.items[at].oid);
      edit.blobs.set(name, blobs[i]);
      await slices.turnIfDue();
    }
    const folders = new Map<string, EncodedTree>();
    for (const [folder, { children, blobs: changed }] of edits) {
      folders.set(folder, withEntries(children, changed, this.#takeScratch()));
    }
    const newRoot = root.items.filter((e) => !folders.has(e.path));
    for (const [folder, children] of folders) {
      if (children.items.length > 0)
        insertSorted(newRoot, { mode: '040000', path: folder, oid: this.#addTree(children, add), type: 'tree' });
    }
    return { tree: this.#addTree(encodedTree(newRoot), add), parentBlobs };
  }

  async #treeOf(commit: string): Promise<string> {
    const tree =
      this.#commitTrees.get(commit) ??
      (await git.readCommit({ fs, gitdir: sharedGitDir(this.#dir), oid: commit, cache: this.#cache })).commit.tree;
    this.#rememberCommit(commit, tree);
    return tree;
  }

  async #readTree(oid: string): Promise<EncodedTree> {
    const cached = this.#trees.get(oid);
    if (cached) {
      this.#remember(oid, cached);
      return cached;
    }
    const { tree } = await git.readTree({ fs, gitdir: sharedGitDir(this.#dir), oid, cache: this.#cache });
    const items = encodedTree(tree.map((e) => ({ mode: e.mode, path: e.path, oid: e.oid, type: e.type })));
    this.#remember(oid, items);
    return items;
  }

  #addTree(tree: EncodedTree, add: AddObject): string {
    // The checksum stays with the tree: the next write's tree, one entry changed, takes it over.
    const oid = add('tree', tree.bytes, () => treeChecksum(tree), treeObjectId(tree));
    this.#remember(oid, tree);
    return oid;
  }

  #remember(oid: string, tree: EncodedTree): void {
    this.#trees.delete(oid);
    this.#trees.set(oid, tree);
    if (this.#trees.size <= TREE_CACHE_SIZE) return;
    const [oldest, dropped] = this.#trees.entries().next().value!;
    this.#trees.delete(oldest);
    // Kept for its buffers only if it is the largest tree seen dropped: a record folder's.
    if (!this.#scratch || dropped.bytes.length >= this.#scratch.bytes.length) this.#scratch = dropped;
  }

  /** The tree whose buffers the next folder tree may be written into, unless they are still being written. */
  #takeScratch(): EncodedTree | undefined {
    const scratch = this.#scratch;
    if (!scratch || this.#writing.has(scratch.bytes) || [...this.#trees.values()].includes(scratch)) return undefined;
    this.#scratch = undefined;
    return scratch;
  }

  #rememberCommit(commit: string, tree: string): void {
    this.#commitTrees.delete(commit);
    this.#commitTrees.set(commit, tree);
    if (this.#commitTrees.size > TREE_CACHE_SIZE) this.#commitTrees.delete(this.#commitTrees.keys().next().value!);
  }
}

/**
 * The folder's tree with each named entry set to its blob, or removed (null). One entry is
 * spliced into the encoded bytes (a folder of 10,000 records is half a megabyte); several are
 * edited in the list of entries and encoded once, from the entries' kept encodings.
 */
function withEntries(
  children: EncodedTree,
  blobs: ReadonlyMap<string, string | null>,
  scratch?: EncodedTree,
): EncodedTree {
  const itemOf = (name: string, blob: string, was: TreeItem | undefined): TreeItem => ({
    mode: was?.mode === '100755' ? '100755' : '100644',
    path: name,
    oid: blob,
    type: 'blob',
  });
  if (blobs.size === 1) {
    const [[name, blob]] = [...blobs] as [[string, string | null]];
    const at = entryIndex(children.items, name);
    if (blob === null) return at === -1 ? children : spliceTree(children, at, 1);
    if (at !== -1) return spliceTree(children, at, 1, itemOf(name, blob, children.items[at]), scratch);
    const item = itemOf(name, blob, undefined);
    return spliceTree(children, insertionPoint(children.items, item), 0, item);
  }
  const items: TreeItem[] = [];
  for (const item of children.items) {
    if (!blobs.has(item.path)) items.push(item);
    else if (blobs.get(item.path) !== null) items.push(itemOf(item.path, blobs.get(item.path)!, item));
  }
  const present = new Set(children.items.map((e) => e.path));
  for (const [name, blob] of blobs)
    if (blob !== null && !present.has(name)) insertSorted(items, itemOf(name, blob, undefined));
  return encodedTree(items);
}

/** Refuses anything that is not "<folder>/<file>": the service writes nowhere else. */
export function assertRecordPath(path: string): void {
  const parts = path.split('/');
  if (parts.length !== 2 || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\'))) {
    throw new Error(`refusing to write "${path}": not a record file path`);
  }
}
