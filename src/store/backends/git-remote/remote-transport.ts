// Talking to a remote Git host over HTTP(S) (isomorphic-git): clone, fetch, push, each with
// the credentials, and every failure typed: the branch moved (the write is applied again on
// the new head), the credentials refused, the host unreachable or refusing.
import * as fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { BaseMoved, describeError, StoreUnavailable } from '../../errors.ts';
import { authCallbacks, type GitCredentials, redact } from './remote-auth.ts';

/** The ref a write's commit is pushed from; it exists only during the push. */
const OUTGOING_REF = 'refs/gitops-config-api/outgoing';

export interface RemoteTarget {
  url: string;
  dir: string;
  credentials: GitCredentials | undefined;
  cache: object;
}

/** Clones the branch (objects only: the service reads commits, it never checks one out); returns the branch name. */
export async function cloneRemote(target: RemoteTarget, branch: string | undefined): Promise<string> {
  await mkdir(target.dir, { recursive: true });
  try {
    await git.clone({
      fs,
      http,
      dir: target.dir,
      url: target.url,
      ref: branch,
      singleBranch: true,
      noCheckout: true,
      noTags: true,
      cache: target.cache,
      ...authCallbacks(target.credentials),
    });
  } catch (error) {
    throw remoteFault(error, target);
  }
  const cloned = branch ?? (await git.currentBranch({ fs, dir: target.dir })) ?? undefined;
  if (!cloned) throw new StoreUnavailable('remote_refused', 'the remote has no default branch; set CONFIG_BRANCH');
  return cloned;
}

/** Fetches the branch; returns the commit the remote's branch names. */
export async function fetchBranch(target: RemoteTarget, branch: string): Promise<string> {
  let result;
  try {
    result = await git.fetch({
      fs,
      http,
      dir: target.dir,
      url: target.url,
      ref: branch,
      remoteRef: branch,
      singleBranch: true,
      tags: false,
      cache: target.cache,
      ...authCallbacks(target.credentials),
    });
  } catch (error) {
    throw remoteFault(error, target);
  }
  if (!result.fetchHead) throw new StoreUnavailable('remote_refused', `the remote has no branch ${branch}`);
  return result.fetchHead;
}

/**
 * Pushes `commit` (built on `parent`) to the branch. A refused push is told apart by what the
 * remote holds, not by the wording of the refusal: if the branch no longer names `parent`,
 * it moved meanwhile (BaseMoved: apply the write again on the new head); if it still does,
 * the remote refused the change itself.
 */
export async function pushCommit(target: RemoteTarget, branch: string, commit: string, parent: string): Promise<void> {
  const remoteRef = `refs/heads/${branch}`;
  await git.writeRef({ fs, dir: target.dir, ref: OUTGOING_REF, value: commit, force: true });
  let refusal: string | undefined;
  try {
    const result = await git.push({
      fs,
      http,
      dir: target.dir,
      url: target.url,
      ref: OUTGOING_REF,
      remoteRef,
      cache: target.cache,
      ...authCallbacks(target.credentials),
    });
    const status = result.refs[remoteRef];
    if (!result.ok || status?.ok === false) refusal = status?.error ?? result.error ?? 'refused';
  } catch (error) {
    if ((error as { code?: string }).code !== 'PushRejectedError') throw remoteFault(error, target);
    refusal = describeError(error);
  } finally {
    await git.deleteRef({ fs, dir: target.dir, ref: OUTGOING_REF }).catch(() => undefined);
  }
  if (refusal === undefined) return;
  const head = await fetchBranch(target, branch);
  if (head !== parent) throw new BaseMoved(`the remote branch moved to ${head} (the push was refused: ${refusal})`);
  throw new StoreUnavailable('remote_refused', `the Git remote refused the change, so nothing was stored: ${redact(refusal, secrets(target))}`);
}

/** A failure to reach or use the remote, typed, with every secret taken out of the message. */
export function remoteFault(error: unknown, target: RemoteTarget): StoreUnavailable {
  if (error instanceof StoreUnavailable) return error;
  const e = error as { code?: string; data?: { statusCode?: number } };
  const status = e.data?.statusCode;
  // isomorphic-git gives up with UserCanceledError when the credentials were refused and
  // onAuthFailure declined to offer them again.
  if (e.code === 'UserCanceledError' || status === 401 || status === 403) {
    return new StoreUnavailable(
      'auth_failed',
      `authentication failed: the Git remote ${redact(target.url, [])} refused the credentials (check GIT_TOKEN, or GIT_USERNAME and GIT_PASSWORD)`,
    );
  }
  return new StoreUnavailable('remote_unreachable', `the Git remote could not be reached: ${redact(describeError(error), secrets(target))}`);
}

function secrets(target: RemoteTarget): (string | undefined)[] {
  const { credentials } = target;
  return [credentials?.password, credentials?.username === 'oauth2' ? undefined : credentials?.username];
}
