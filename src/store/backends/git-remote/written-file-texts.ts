// The text a write gives a record file of a commit: the file's text at that commit edited in
// place, or a new file that starts with the schema hint line the other files of its folder
// start with. A folder's tree is read once per commit, however many of its files a change set
// writes.
import * as fs from 'node:fs';
import git, { type TreeEntry } from 'isomorphic-git';
import type { AnyRecord, Collection } from '../../../domain/records.ts';
import { schemaHintLine } from '../../../domain/repo-layout/record-file-text.ts';
import { readBlobText } from '../../git/commit-files.ts';
import { recordFileThread } from '../../record-files/record-file-thread.ts';

export class WrittenFileTexts {
  readonly #dir: string;
  readonly #commit: string;
  readonly #cache: object;
  readonly #folders = new Map<Collection, Promise<{ tree: TreeEntry[] }>>();

  constructor(dir: string, commit: string, cache: object) {
    this.#dir = dir;
    this.#commit = commit;
    this.#cache = cache;
  }

  async of(path: string, collection: Collection, record: AnyRecord): Promise<string> {
    const dir = this.#dir;
    const cache = this.#cache;
    if (!this.#folders.has(collection)) {
      this.#folders.set(
        collection,
        git.readTree({ fs, dir, oid: this.#commit, filepath: collection, cache }).catch(() => ({ tree: [] })),
      );
    }
    const folder = await this.#folders.get(collection)!;
    const own = folder.tree.find((e) => `${collection}/${e.path}` === path);
    if (own) return recordFileThread.edit(collection, record, await readBlobText(dir, own.oid, cache));
    const sibling = folder.tree.find((e) => e.type === 'blob');
    return recordFileThread.edit(
      collection,
      record,
      undefined,
      sibling ? schemaHintLine(await readBlobText(dir, sibling.oid, cache)) : '',
    );
  }
}
