// A branch's past, read from the object store: first parents back from a commit, and what a
// commit's message says about a mass shrink.
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { allowsShrink } from '../../domain/judge.ts';
import { cleanPersonName, emailAddress } from '../../domain/writes/author-identity.ts';
import type { CommitObject } from './format/commit-object.ts';
import type { ObjectReader } from './files/object-reader.ts';
import type { RevisionFacts } from '../backend.ts';
import { sharedGitDir } from './git-directory.ts';

/** The commit's parents and message: natively when a reader is given and can, else through isomorphic-git. */
async function readCommitFacts(
  dir: string,
  oid: string,
  cache: object,
  reader?: ObjectReader,
): Promise<Pick<CommitObject, 'parents' | 'message'>> {
  const native = reader?.readCommit(oid);
  if (native) return native;
  const { commit } = await git.readCommit({ fs, gitdir: sharedGitDir(dir), oid, cache });
  return { parents: commit.parent, message: commit.message };
}

/** What a commit says of itself, for the history of revisions: its author, when, and its message. */
export async function commitFacts(
  dir: string,
  oid: string,
  cache: object,
  reader?: ObjectReader,
): Promise<RevisionFacts | undefined> {
  let commit: Pick<CommitObject, 'author' | 'message'> | undefined = reader?.readCommit(oid);
  try {
    commit ??= toCommitObject((await git.readCommit({ fs, gitdir: sharedGitDir(dir), oid, cache })).commit);
  } catch {
    return undefined; // not in this repository (a shallow clone's edge, a commit gone)
  }
  const { author, message } = commit;
  // Whoever made the commit, the history shows the name as the service writes names down
  // itself: no control or bidirectional character, and an e-mail only when it is an address.
  return {
    author: author ? { name: cleanPersonName(author.name), email: emailAddress(author.email) ?? null } : null,
    time: author ? new Date(author.timestamp * 1000).toISOString() : null,
    message: message.replace(/\n+$/, ''),
  };
}

function toCommitObject(commit: {
  author: { name: string; email: string; timestamp: number };
  message: string;
}): Pick<CommitObject, 'author' | 'message'> {
  return {
    author: { name: commit.author.name, email: commit.author.email, timestamp: commit.author.timestamp },
    message: commit.message,
  };
}

/** The commits before `commit` on its first-parent line, newest first, at most `limit`. */
export async function firstParents(
  dir: string,
  commit: string,
  limit: number,
  cache: object,
  reader?: ObjectReader,
): Promise<string[]> {
  const found: string[] = [];
  let oid = commit;
  while (found.length < limit) {
    let parent: string | undefined;
    try {
      parent = (await readCommitFacts(dir, oid, cache, reader)).parents[0];
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
export async function commitAllowsShrink(
  dir: string,
  commit: string,
  cache: object,
  reader?: ObjectReader,
): Promise<boolean> {
  try {
    const { message, parents } = await readCommitFacts(dir, commit, cache, reader);
    if (allowsShrink(message)) return true;
    for (const merged of parents.slice(1)) {
      if (allowsShrink((await readCommitFacts(dir, merged, cache, reader)).message)) return true;
    }
    return false;
  } catch {
    return false;
  }
}

/**
 * How many commits back from the served one a revision announced as older is looked for.
 * An older revision a replica is told of is nearly always a few commits back (the replicas
 * fetched a moment apart); past this it is taken as not older, which costs a fetch, not a
 * wrong answer.
 */
const ANCESTOR_SEARCH_LIMIT = 256;

/**
 * Whether `commit` is in this repository and an ancestor of `than` (or `than` itself). A
 * commit not in the object store is not known to be older: it may be one not fetched yet.
 */
export async function isOlderCommit(
  dir: string,
  commit: string,
  than: string,
  cache: object,
  reader?: ObjectReader,
): Promise<boolean> {
  if (commit === than) return true;
  try {
    await readCommitFacts(dir, commit, cache, reader);
  } catch {
    return false;
  }
  const seen = new Set<string>([than]);
  const queue = [than];
  while (queue.length > 0 && seen.size <= ANCESTOR_SEARCH_LIMIT) {
    let parents: string[];
    try {
      parents = (await readCommitFacts(dir, queue.shift()!, cache, reader)).parents;
    } catch {
      continue; // a shallow clone ends here
    }
    for (const parent of parents) {
      if (parent === commit) return true;
      if (!seen.has(parent)) {
        seen.add(parent);
        queue.push(parent);
      }
    }
  }
  return false;
}
