// Talking to a remote Git host over HTTP(S) (isomorphic-git): clone, fetch, push, each with
// the credentials, and every failure typed: the branch moved (the write is applied again on
// the new head), the credentials refused, the host unreachable or refusing.
import * as fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { BaseMoved, describeError, StoreUnavailable } from '../../errors.ts';
import { retry } from '../../../shared/retry.ts';
import { redactUrls } from '../../../shared/redact-url.ts';
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

/** The commit the remote's branch names now, asked for without fetching anything (as `git ls-remote` asks). */
export async function remoteBranchHead(target: RemoteTarget, branch: string): Promise<string | undefined> {
  const ref = `refs/heads/${branch}`;
  try {
    const refs = await git.listServerRefs({ http, url: target.url, prefix: ref, ...authCallbacks(target.credentials) });
    return refs.find((found) => found.ref === ref)?.oid;
  } catch (error) {
    throw remoteFault(error, target);
  }
}

/**
 * How often a push the remote refused for a held lock, or lost on the way, is tried again,
 * and the pauses: 0.2 s, doubling up to 1.6 s (about 3 s in all), never past the write's
 * deadline.
 */
const PUSH_RETRIES = 4;
const FIRST_PUSH_RETRY_MS = 200;
const MAX_PUSH_RETRY_MS = 1600;

/** The remote's branch moved under a push: to `head`. */
export class BranchMoved extends BaseMoved {
  readonly head: string;

  constructor(head: string, message: string) {
    super(message);
    this.head = head;
  }
}

/**
 * Pushes `commit` (built on `parent`) to the branch. What happened is told by what the remote
 * holds afterwards, not by the wording of a refusal: the branch names `commit` — the push
 * landed (even if its answer was lost); it no longer names `parent` — it moved meanwhile
 * (BaseMoved: the write is applied again on the new head); it still names `parent` — the
 * push was refused: a lock the remote held (another push landing) is waited out and the
 * push tried again, a bounded number of times and never past `deadline`; any other refusal
 * is final — the objects refused by the remote's checks (`content_refused`: the same commit
 * would be refused again), or the update refused (`remote_refused`: a hook, a protected branch).
 */
export async function pushCommit(
  target: RemoteTarget,
  branch: string,
  commit: string,
  parent: string,
  options: { deadline?: number; onRetry?: (why: string) => void } = {},
): Promise<void> {
  const attempt = async (): Promise<void> => {
    const failure = await pushOnce(target, branch, commit);
    if (failure === undefined) return;
    const head = await fetchBranch(target, branch);
    if (head === commit) return;
    if (head !== parent)
      throw new BranchMoved(
        head,
        `the remote branch moved to ${head} (the push was refused: ${redact(failure.message, secrets(target))})`,
      );
    if (failure.kind === 'content') {
      throw new StoreUnavailable(
        'content_refused',
        "the Git remote refused the commit's content, so nothing was stored: its checks of what is pushed to it " +
          '(such as receive.fsckObjects or a size limit) failed, and trying again would not help: ' +
          redact(failure.message, secrets(target)),
      );
    }
    // "failed to update ref" is git's report for a branch it could not move, a lock held by
    // another push landing being the usual cause; its side band names the lock when it is one.
    const passing = failure.kind === 'lost' || /\block|failed to update ref/i.test(failure.message);
    if (!passing)
      throw new StoreUnavailable(
        'remote_refused',
        `the Git remote refused the change, so nothing was stored: ${redact(failure.message, secrets(target))}`,
      );
    throw new PushNotTaken(failure);
  };
  await retry(attempt, {
    firstMs: FIRST_PUSH_RETRY_MS,
    maxMs: MAX_PUSH_RETRY_MS,
    maxRetries: PUSH_RETRIES,
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    retryable: (error) => error instanceof PushNotTaken,
    pausing: (error) => options.onRetry?.(redact((error as PushNotTaken).failure.message, secrets(target))),
    exhausted: (error, attempts) => {
      const { failure } = error as PushNotTaken;
      return new StoreUnavailable(
        failure.kind === 'lost' ? 'remote_unreachable' : 'locked',
        `the Git remote did not take the change after ${attempts} attempts, so nothing was stored: ` +
          `${redact(failure.message, secrets(target))}`,
      );
    },
  });
}

/** A push the remote did not take for a reason that passes (a lock, a lost connection): tried again. */
class PushNotTaken extends Error {
  readonly failure: PushFailure;

  constructor(failure: PushFailure) {
    super(failure.message);
    this.failure = failure;
  }
}

/**
 * Why a push did not land: the remote refused the objects themselves ("content": its report
 * says the unpack failed), refused the branch's update ("refused": a lock, a hook, a
 * protected branch), or the exchange broke off ("lost").
 */
interface PushFailure {
  kind: 'content' | 'refused' | 'lost';
  message: string;
}

/** What isomorphic-git's GitPushError carries: the remote's report (report-status). */
interface PushReport {
  ok: boolean;
  error?: string;
  refs: Record<string, { ok: boolean; error?: string }>;
}

/** One push; undefined when the remote took it, else why not. */
async function pushOnce(target: RemoteTarget, branch: string, commit: string): Promise<PushFailure | undefined> {
  const remoteRef = `refs/heads/${branch}`;
  /** What the host wrote to the pusher's terminal (its stderr, on the side band): why it refused, in its words. */
  const remoteSaid: string[] = [];
  await git.writeRef({ fs, dir: target.dir, ref: OUTGOING_REF, value: commit, force: true });
  try {
    const result = await git.push({
      fs,
      http,
      dir: target.dir,
      url: target.url,
      ref: OUTGOING_REF,
      remoteRef,
      cache: target.cache,
      onMessage: (line) => void remoteSaid.push(line),
      ...authCallbacks(target.credentials),
    });
    const status = result.refs[remoteRef];
    if (!result.ok || status?.ok === false)
      return { kind: 'refused', message: status?.error ?? result.error ?? 'refused' };
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'PushRejectedError') return { kind: 'refused', message: describeError(error) };
    // The remote answered and refused; a failure to reach it never has a report.
    if (code === 'GitPushError') {
      // isomorphic-git hands on the side band's lines without waiting for them: one turn more lets the last ones in.
      await new Promise((resolve) => setImmediate(resolve));
      return reportedFailure((error as { data: { result: PushReport } }).data.result, remoteSaid);
    }
    const fault = remoteFault(error, target);
    // Credentials refused, or the host unreachable: only a fetch can tell whether a push
    // that broke off landed; an authentication failure is final at once.
    if (fault.reason === 'auth_failed') throw fault;
    return { kind: 'lost', message: fault.message };
  } finally {
    await git.deleteRef({ fs, dir: target.dir, ref: OUTGOING_REF }).catch(() => undefined);
  }
}

/** How much of what the host wrote goes into a refusal's message. */
const REMOTE_WORDS_MAX_LINES = 4;
const REMOTE_WORDS_MAX_CHARS = 600;

/**
 * The remote's report of a refused push, in its own words: the unpack's result first, then
 * each branch's, then the first lines the host wrote (a hook's reason, a lock it holds).
 */
function reportedFailure(report: PushReport, remoteSaid: readonly string[]): PushFailure {
  const refs = Object.entries(report.refs)
    .filter(([, ref]) => !ref.ok)
    .map(([name, ref]) => `${name}: ${ref.error ?? 'refused'}`);
  const said = remoteSaid
    .join('')
    .split('\n')
    .map((line) => line.replace(/\p{Cc}/gu, '').trim())
    .filter((line) => line !== '')
    .slice(0, REMOTE_WORDS_MAX_LINES)
    .join(' ')
    .slice(0, REMOTE_WORDS_MAX_CHARS);
  const words = [...(report.ok ? [] : [`unpack ${report.error ?? 'failed'}`]), ...refs].join('; ') || 'refused';
  return {
    kind: report.ok ? 'refused' : 'content',
    message: said === '' ? words : `${words} (the remote said: ${said})`,
  };
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
      `authentication failed: the Git remote ${redactUrls(target.url)} refused the credentials (check GIT_TOKEN, or ` +
        `GIT_USERNAME and GIT_PASSWORD)`,
    );
  }
  return new StoreUnavailable(
    'remote_unreachable',
    `the Git remote could not be reached: ${redact(describeError(error), secrets(target))}`,
  );
}

function secrets(target: RemoteTarget): (string | undefined)[] {
  const { credentials } = target;
  return [credentials?.password, credentials?.username === 'oauth2' ? undefined : credentials?.username];
}
