// Other instances of this service pushing to the same branch. Two writers lose nothing (each
// push is a compare-and-swap, and a write the other overtook is applied again on its commit),
// but under load each write may need several tries, and a person running two writers by
// mistake should hear of it. When a push is refused because the branch moved, the commits
// that moved it are read (the fetch brought them): one whose Gitops-Writer trailer names
// another instance is logged — once per instance — and counted for /ready.
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import type { Logger } from 'pino';
import { writerOf } from '../../git/commit-message.ts';

/** How many commits back from the new head are read to find who moved the branch. */
const COMMITS_READ = 20;
/** Instances remembered (and warned about) at most: the count stops there. */
const MAX_REMEMBERED = 100;

export class OtherWriters {
  readonly #own: string;
  readonly #log: Logger;
  readonly #seen = new Set<string>();

  constructor(own: string, log: Logger) {
    this.#own = own;
    this.#log = log;
  }

  /** Instances other than this one seen moving the branch. */
  get count(): number {
    return this.#seen.size;
  }

  /** Reads the commits from `head` back to `parent` (first parents, at most COMMITS_READ) for other writers. */
  async noteMove(target: { dir: string; cache: object }, branch: string, head: string, parent: string): Promise<void> {
    let oid: string | undefined = head;
    for (let read = 0; oid !== undefined && oid !== parent && read < COMMITS_READ; read++) {
      let commit;
      try {
        ({ commit } = await git.readCommit({ fs, dir: target.dir, oid, cache: target.cache }));
      } catch {
        return; // not fetched (a shallow history): nothing more to learn
      }
      const writer = writerOf(commit.message);
      if (writer !== undefined) this.#saw(writer, branch, oid);
      oid = commit.parent[0];
    }
  }

  #saw(writer: string, branch: string, commit: string): void {
    if (writer === this.#own || this.#seen.has(writer) || this.#seen.size >= MAX_REMEMBERED) return;
    this.#seen.add(writer);
    this.#log.warn(
      { writer, own: this.#own, branch, commit, other_writers_seen: this.#seen.size },
      `another instance of this service (${writer}) pushes to branch ${branch} too; no write is lost, but writes ` +
        `that cross are tried again and take longer (up to WRITE_TIMEOUT)`,
    );
  }
}
