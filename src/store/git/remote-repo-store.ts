// STORE_BACKEND=git with CONFIG_REPO an http(s) URL: the branch is cloned into
// CONFIG_CLONE_DIR (objects only: the service reads commits from the object store, so no
// working tree can be half-updated) and fetched every CONFIG_SYNC_INTERVAL, or at once when
// the push webhook calls. Each new commit is loaded whole and checked; a commit that fails
// keeps the last good one served. The local branch ref always names the commit served, so
// a restart serves it again at once, even while the Git host is down.
//
// In crud mode a REST write is applied to the latest remote head (fetched first), committed
// as objects on top of it and pushed; only once the remote has the commit does the local
// branch move and the answer go out. A push refused because the branch moved (a merged pull
// request) starts over on the new head: the change is applied and checked again there. If
// the remote cannot be reached the answer is 503 and no local ref names the commit.
import * as fs from 'node:fs';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import type { Logger } from 'pino';
import { recordFilePath } from '../../domain/config-repo.ts';
import { formatProblem } from '../../domain/problems.ts';
import { leadingComments, recordFileText, schemaHintLine } from '../../domain/record-file.ts';
import { withRevision } from '../../domain/snapshot.ts';
import { ApiError } from '../../http/errors.ts';
import type { SnapshotPublisher } from '../../serving/publisher.ts';
import { applyMutation } from '../apply-mutation.ts';
import {
  type LoadReport,
  type Mutation,
  type MutationResult,
  StoreStartError,
  type StoreStatus,
  type WritableConfigStore,
} from '../config-store.ts';
import { SerialQueue } from '../serial-queue.ts';
import { commitMessage } from './commit-message.ts';
import { readBlobText } from './commit-tree.ts';
import { CommitSnapshotLoader } from './commit-snapshot.ts';
import { type CommitAuthor, GitWriter } from './git-writer.ts';
import { authCallbacks, type GitCredentials, redact, redactUrl } from './remote-auth.ts';

export interface RemoteRepoStoreOptions {
  url: string;
  /** Undefined: the remote's default branch. */
  branch: string | undefined;
  cloneDir: string;
  syncIntervalMs: number;
  credentials: GitCredentials | undefined;
  publisher: SnapshotPublisher;
  log: Logger;
  /** Accept REST writes (crud mode), committed with this author and pushed. */
  writable?: boolean;
  author?: CommitAuthor;
}

interface SyncReport {
  at: string;
  ok: boolean;
  error?: string;
}

/** The first retry after a failed sync; doubled up to the sync interval. */
const FIRST_RETRY_MS = 500;
/** How long start() waits for the first clone before the service starts unready. */
const START_WAIT_MS = 15_000;
/** Attempts of a write whose push is refused because the branch moved meanwhile. */
const PUSH_ATTEMPTS = 5;
/** The ref a write's commit is pushed from; it exists only during the push. */
const OUTGOING_REF = 'refs/gitops-config-api/outgoing';

class PushRejected extends Error {}

export class RemoteRepoStore implements WritableConfigStore {
  readonly backend = 'git' as const;
  readonly url: string;
  readonly dir: string;
  readonly #options: RemoteRepoStoreOptions & { beforePush?: () => Promise<void> };
  readonly #publisher: SnapshotPublisher;
  readonly #log: Logger;
  readonly #gitCache = {};
  readonly #loader: CommitSnapshotLoader;
  /** Syncs and writes run one at a time. */
  readonly queue = new SerialQueue();
  #branch: string | undefined;
  #cloned = false;
  #lastLoad: LoadReport | undefined;
  #lastSync: SyncReport | undefined;
  #lastGoodSync: string | undefined;
  /** A commit that failed to load: not loaded again until the branch moves on. */
  #rejectedCommit: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RETRY_MS;
  #syncQueued: Promise<void> | undefined;
  #stopped = false;
  /** "collection/id" -> file, of the commit served. */
  #fileOf = new Map<string, string>();
  readonly #writer: GitWriter;

  constructor(options: RemoteRepoStoreOptions) {
    this.#options = options;
    this.url = options.url;
    this.dir = resolve(options.cloneDir);
    this.#publisher = options.publisher;
    this.#log = options.log;
    this.#branch = options.branch;
    this.#loader = new CommitSnapshotLoader(this.dir, this.#gitCache);
    this.#writer = new GitWriter({
      dir: this.dir,
      author: options.author ?? { name: 'gitops-config-api', email: 'gitops-config-api@localhost' },
      cache: this.#gitCache,
    });
  }

  /** Tests only: a step run between a write's commit and its push (to race another pusher). */
  setBeforePush(step: () => Promise<void>): void {
    this.#options.beforePush = step;
  }

  get branch(): string | undefined {
    return this.#branch;
  }

  async start(): Promise<void> {
    if (existsSync(join(this.dir, '.git'))) await this.#reuseClone();
    const first = this.sync('start');
    // A reachable remote makes the service ready before it listens; an unreachable one must
    // not keep it from starting (it retries in the background, /ready says 503 meanwhile).
    await Promise.race([first, new Promise((r) => setTimeout(r, START_WAIT_MS).unref())]);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.queue.idle();
  }

  status(): StoreStatus {
    return {
      backend: this.backend,
      last_load: this.#lastLoad,
      details: {
        config_repo: redactUrl(this.url),
        branch: this.#branch ?? null,
        clone_dir: this.dir,
        served_commit: this.#publisher.current()?.revision ?? null,
        last_sync: this.#lastSync ?? null,
        last_successful_sync: this.#lastGoodSync ?? null,
        sync_interval_ms: this.#options.syncIntervalMs,
      },
    };
  }

  /**
   * Fetches and adopts the branch head now. Calls while a sync is queued share it, so a burst
   * of webhook calls costs one fetch.
   */
  sync(reason: string): Promise<void> {
    this.#syncQueued ??= this.queue.run(async () => {
      this.#syncQueued = undefined;
      await this.#sync(reason);
    });
    return this.#syncQueued;
  }

  /** Fetches the branch; returns the remote head. Throws on network or auth errors. */
  async fetchHead(): Promise<string> {
    if (!this.#cloned) await this.#clone();
    const result = await git.fetch({
      fs,
      http,
      dir: this.dir,
      url: this.url,
      ref: this.#branch,
      remoteRef: this.#branch,
      singleBranch: true,
      tags: false,
      cache: this.#gitCache,
      ...authCallbacks(this.#options.credentials),
    });
    if (!result.fetchHead) throw new Error(`the remote has no branch ${this.#branch}`);
    return result.fetchHead;
  }

  /** Serves `commit` if it loads; records why not otherwise. Returns whether it is served. */
  async adopt(commit: string, reason: string): Promise<boolean> {
    const served = this.#publisher.current()?.revision;
    if (commit === served) return true;
    if (commit === this.#rejectedCommit) return false;
    const at = new Date().toISOString();
    const loaded = await this.#loader.load(commit);
    if (!loaded.ok) {
      this.#rejectedCommit = commit;
      this.#lastLoad = { at, ok: false, revision: commit, error: loaded.error, problems: loaded.problems };
      this.#log.error(
        { commit, served_revision: served ?? null, problems: loaded.problems.slice(0, 50).map(formatProblem) },
        served ? `commit ${commit} rejected, still serving ${served}: ${loaded.error}` : `commit ${commit} cannot be loaded, nothing is served yet: ${loaded.error}`,
      );
      return false;
    }
    if (served && !(await this.#isAncestor(served, commit))) {
      this.#log.warn({ previous: served, commit, branch: this.#branch }, 'the branch was rewritten (force-pushed); following it');
    }
    await git.writeRef({ fs, dir: this.dir, ref: `refs/heads/${this.#branch}`, value: commit, force: true });
    this.#rejectedCommit = undefined;
    this.#fileOf = loaded.fileOf;
    this.#publisher.publish(loaded.snapshot);
    this.#lastLoad = { at, ok: true, revision: commit };
    this.#log.info({ revision: commit, previous: served ?? null, reason, clusters: loaded.snapshot.clusters.size }, 'published a new commit of the config repo');
    return true;
  }

  mutate(mutation: Mutation): Promise<MutationResult> {
    if (!this.#options.writable) return Promise.reject(new ApiError('not_found', 'this store is read-only; start the service with API_MODE=crud'));
    return this.queue.run(() => this.#mutate(mutation));
  }

  async #mutate(mutation: Mutation): Promise<MutationResult> {
    for (let attempt = 1; ; attempt++) {
      let head: string;
      try {
        head = await this.fetchHead();
      } catch (error) {
        throw this.#unreachable(error);
      }
      if (!(await this.adopt(head, 'before a write'))) {
        throw new ApiError('unavailable', `the head of ${this.#branch} has problems, so it takes no writes until they are fixed: ${this.#lastLoad?.error}; see /ready`);
      }
      const base = this.#publisher.current()!.snapshot;
      const applied = applyMutation(base, mutation, head);
      const result = { record: applied.record, revisionBefore: head, changedFields: applied.changedFields };
      if (applied.unchanged) return { ...result, revisionAfter: head, snapshot: base, unchanged: true };

      const { collection, id } = mutation;
      const path = this.#fileOf.get(`${collection}/${id}`) ?? recordFilePath(collection, id);
      const text = applied.record === null ? null : recordFileText(collection, applied.record, await this.#headerFor(path, collection));
      const commit = await this.#writer.commitObjects({ path, text }, commitMessage(mutation, applied.changedFields), head);
      await this.#options.beforePush?.();
      try {
        await this.#push(commit);
      } catch (error) {
        if (error instanceof PushRejected && attempt < PUSH_ATTEMPTS) {
          this.#log.info({ attempt, collection, id, reason: error.message }, 'push refused because the branch moved; applying the write again on the new head');
          continue;
        }
        if (error instanceof PushRejected) {
          throw new ApiError('unavailable', `the branch ${this.#branch} kept moving; the write was not stored after ${attempt} attempts, try again`, {
            headers: { 'retry-after': '1' },
          });
        }
        throw this.#unreachable(error);
      }
      // The remote has it: the branch moves and the change is served.
      await git.writeRef({ fs, dir: this.dir, ref: `refs/heads/${this.#branch}`, value: commit, force: true });
      if (text === null) this.#fileOf.delete(`${collection}/${id}`);
      else this.#fileOf.set(`${collection}/${id}`, path);
      const snapshot = withRevision(applied.snapshot, commit);
      this.#publisher.publish(snapshot);
      this.#lastLoad = { at: new Date().toISOString(), ok: true, revision: commit };
      this.#log.info({ revision: commit, previous: head, attempts: attempt }, 'pushed and published a REST write');
      return { ...result, revisionAfter: commit, snapshot };
    }
  }

  async #push(commit: string): Promise<void> {
    const remoteRef = `refs/heads/${this.#branch}`;
    await git.writeRef({ fs, dir: this.dir, ref: OUTGOING_REF, value: commit, force: true });
    try {
      const result = await git.push({
        fs,
        http,
        dir: this.dir,
        url: this.url,
        ref: OUTGOING_REF,
        remoteRef,
        cache: this.#gitCache,
        ...authCallbacks(this.#options.credentials),
      });
      const status = result.refs[remoteRef];
      if (!result.ok || status?.ok === false) {
        const why = status?.error ?? result.error ?? 'refused';
        if (/fast-forward|fetch first|stale|failed to (update|lock)/i.test(why)) throw new PushRejected(why);
        throw new Error(`the remote refused the push: ${why}`);
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'PushRejectedError') throw new PushRejected((error as Error).message);
      throw error;
    } finally {
      await git.deleteRef({ fs, dir: this.dir, ref: OUTGOING_REF }).catch(() => undefined);
    }
  }

  #unreachable(error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    const message = this.redact((error as Error).message);
    this.#log.warn({ error: message, url: redactUrl(this.url) }, 'a REST write failed: the Git remote did not take it');
    return new ApiError('unavailable', `the Git remote could not be reached, so nothing was changed: ${message}`, { headers: { 'retry-after': '5' } });
  }

  /** The comment lines to keep at the top of the file: its own, or the schema hint its folder uses. */
  async #headerFor(path: string, collection: string): Promise<string> {
    const head = this.#publisher.current()!.revision;
    const folder = await git.readTree({ fs, dir: this.dir, oid: head, filepath: collection, cache: this.#gitCache }).catch(() => ({ tree: [] }));
    const own = folder.tree.find((e) => `${collection}/${e.path}` === path);
    if (own) return leadingComments(await readBlobText(this.dir, own.oid, this.#gitCache));
    const sibling = folder.tree.find((e) => e.type === 'blob');
    return sibling ? schemaHintLine(await readBlobText(this.dir, sibling.oid, this.#gitCache)) : '';
  }

  async #sync(reason: string): Promise<void> {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const at = new Date().toISOString();
    try {
      const head = await this.fetchHead();
      this.#lastSync = { at, ok: true };
      this.#lastGoodSync = at;
      this.#retryMs = FIRST_RETRY_MS;
      await this.adopt(head, reason);
    } catch (error) {
      const message = this.redact((error as Error).message);
      this.#lastSync = { at, ok: false, error: message };
      this.#log.warn({ reason, error: message, url: redactUrl(this.url), retry_in_ms: this.#nextDelay(false) }, 'config repo sync failed');
    } finally {
      this.#schedule();
    }
  }

  #nextDelay(ok: boolean): number {
    return ok ? this.#options.syncIntervalMs : Math.min(this.#retryMs, this.#options.syncIntervalMs);
  }

  #schedule(): void {
    if (this.#stopped) return;
    const ok = this.#lastSync?.ok === true;
    const delay = this.#nextDelay(ok);
    if (!ok) this.#retryMs = Math.min(this.#retryMs * 2, this.#options.syncIntervalMs);
    this.#timer = setTimeout(() => void this.sync(ok ? 'interval' : 'retry'), delay);
    this.#timer.unref();
  }

  async #clone(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    this.#log.info({ url: redactUrl(this.url), branch: this.#branch ?? '(remote default)', dir: this.dir }, 'cloning the config repo');
    await git.clone({
      fs,
      http,
      dir: this.dir,
      url: this.url,
      ref: this.#branch,
      singleBranch: true,
      noCheckout: true,
      noTags: true,
      cache: this.#gitCache,
      ...authCallbacks(this.#options.credentials),
    });
    this.#branch ??= (await git.currentBranch({ fs, dir: this.dir })) ?? undefined;
    if (!this.#branch) throw new Error('the remote has no default branch; set CONFIG_BRANCH');
    this.#cloned = true;
  }

  async #reuseClone(): Promise<void> {
    const origin = await git.getConfig({ fs, dir: this.dir, path: 'remote.origin.url' }).catch(() => undefined);
    if (origin && redactUrl(String(origin)) !== redactUrl(this.url)) {
      throw new StoreStartError(
        `CONFIG_CLONE_DIR ${this.dir} holds a clone of ${redactUrl(String(origin))}, not of ${redactUrl(this.url)}; remove it or choose another CONFIG_CLONE_DIR`,
      );
    }
    this.#branch ??= (await git.currentBranch({ fs, dir: this.dir })) ?? undefined;
    let head: string | undefined;
    try {
      head = await git.resolveRef({ fs, dir: this.dir, ref: `refs/heads/${this.#branch}` });
    } catch {
      head = undefined; // an interrupted first clone: clone again
    }
    if (!head || !this.#branch) return;
    this.#cloned = true;
    await this.adopt(head, 'existing clone');
  }

  async #isAncestor(ancestor: string, commit: string): Promise<boolean> {
    if (ancestor === commit) return true;
    try {
      return await git.isDescendent({ fs, dir: this.dir, oid: commit, ancestor, depth: -1, cache: this.#gitCache });
    } catch {
      return false;
    }
  }

  /** An error text with the credentials and URL user info taken out. */
  redact(text: string): string {
    return redact(text, [this.#options.credentials?.password, this.#options.credentials?.username === 'oauth2' ? undefined : this.#options.credentials?.username]);
  }
}
