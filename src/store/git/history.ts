// A branch's past, read from the object store: first parents back from a commit, and what a
// commit's message says about a mass shrink.
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { allowsShrink } from '../../domain/judge.ts';

/** The commits before `commit` on its first-parent line, newest first, at most `limit`. */
export async function firstParents(dir: string, commit: string, limit: number, cache: object): Promise<string[]> {
  const found: string[] = [];
  let oid = commit;
  while (found.length < limit) {
    let parent: string | undefined;
    try {
      parent = (await git.readCommit({ fs, dir, oid, cache })).commit.parent[0];
    } catch {
      break; // a shallow clone ends here
    }
    if (!parent) break;
    found.push(parent);
    oid = parent;
  }
  return found;
}

/**
 * Whether the commit's message carries `Gitops-Allow-Shrink: yes` — or, for a merge commit
 * (a pull request merged, or checked out for CI as its merge into the base), the message of
 * a merged head does: hosts write their own message on the merge commit.
 */
export async function commitAllowsShrink(dir: string, commit: string, cache: object): Promise<boolean> {
  try {
    const { message, parent } = (await git.readCommit({ fs, dir, oid: commit, cache })).commit;
    if (allowsShrink(message)) return true;
    for (const merged of parent.slice(1)) {
      if (allowsShrink((await git.readCommit({ fs, dir, oid: merged, cache })).commit.message)) return true;
    }
    return false;
  } catch {
    return false;
  }
}
