// The one owner of what is served. Whatever the backend, a new revision goes the same way:
// load it whole, judge it against the revision served now (domain/judge.ts), publish it
// atomically or keep the last good one and say why; and a write goes the same way: apply it
// to the served revision, commit it through the backend, publish, write the audit line
// (./write-attempts.ts). Loads and writes run one at a time, in one queue; writes also take
// turns among themselves, and one whose store keeps moving under it waits between its tries
// outside the queue, so loads go on meanwhile.
import type { Logger } from 'pino';
import { formatProblem, isError, type Problem } from '../../domain/problem.ts';
import type { ChangeSetRequest } from '../../domain/writes/change-set.ts';
import type { Backend, BackendDescription, LoadedRevision, RevisionFacts } from '../backend.ts';
import { type BeforePublish, waitBeforePublish } from './before-publish.ts';
import { describeError, StoreUnavailable } from '../errors.ts';
import { buildRevision, type JudgedRevision, judgeRevision } from './judged-revision.ts';
import type { PublishedRevision, PublishListener } from './published-revision.ts';
import { type LoadReport, nextLoadReport, sizeOf, type StoreStatus } from './store-status.ts';
import { yieldToEventLoop } from './event-loop.ts';
import { newestInStore, servedAtLeast } from './revision-order.ts';
import { SerialQueue } from './serial-queue.ts';
import { RetryPolicy } from '../../shared/retry.ts';
import { type LoadListener, StoreEvents, type WriteListener } from './store-events.ts';
import type { WriteOptions, WriteResult, WriteSide } from '../writes/write-attempts.ts';
import { StoreWrites } from '../writes/store-writes.ts';
import { WriterTurns } from '../writes/writer-turns.ts';
import { keepForRestart, readStartHistory, retiredOnPublish, type StartHistory } from '../history/start-history.ts';
import { locateRefusedProblems } from './refused-problems.ts';
import { type HistoryPage, type HistoryQuery, RevisionHistory, writeFacts } from '../history/revision-history.ts';
import { StartupError } from '../../shared/startup-error.ts';

/** The first retry after a load failed for a fault (not for problems in the data); doubled up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
/** How long start() waits for the first revision before the service starts unready. */
const START_WAIT_MS = 15_000;
/** WRITE_TIMEOUT's default. */
const DEFAULT_WRITE_TIMEOUT_MS = 10_000;

export interface StoreRunnerOptions {
  log: Logger;
  /** GUARD_ACCEPT_REVISION: revisions whose mass shrink is meant. */
  acceptShrink?: readonly string[];
  /** WRITE_TIMEOUT: how long a write whose store keeps moving under it keeps trying. */
  writeTimeoutMs?: number;
}

export class StoreRunner {
  readonly #backend: Backend;
  readonly #log: Logger;
  readonly #acceptShrink: readonly string[];
  readonly #writeTimeoutMs: number;
  /** What the first revision of this process is judged against (found once, at its first load). */
  #start: StartHistory | undefined;
  readonly #queue = new SerialQueue();
  readonly #events = new StoreEvents();
  #published: PublishedRevision | undefined;
  #lastLoad: LoadReport | undefined;
  /** The last revision refused, while the store still holds it. */
  #refused: { revision: string; error: string; problems: Problem[] } | undefined;
  /** A load queued and not started yet: further requests share it. */
  #queuedLoad: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #beforePublish: BeforePublish | undefined;
  readonly #retry = new RetryPolicy({ firstMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_MS });
  readonly #writes = new StoreWrites(() => this.#writeSide(), this.#events);
  /** When this runner's writes leave room for another writer of the store. */
  readonly #writerTurns = new WriterTurns();
  readonly #history: RevisionHistory;
  #stopped = false;

  constructor(backend: Backend, options: StoreRunnerOptions) {
    this.#backend = backend;
    this.#log = options.log;
    this.#acceptShrink = options.acceptShrink ?? [];
    this.#writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
    this.#history = new RevisionHistory(async (revision) => backend.revisionFacts?.(revision));
  }

  /** A page of the revisions judged, newest first (./revision-history.ts); undefined when `before` is not in the list. */
  revisions(query: HistoryQuery): Promise<HistoryPage | undefined> {
    return this.#history.list(query);
  }

  published(): PublishedRevision | undefined {
    return this.#published;
  }

  onPublish(listener: PublishListener): () => void {
    return this.#events.onPublish(listener);
  }

  /**
   * The one step a publication (by a load or a write) waits for before the new revision is
   * served, bounded (./before-publish.ts).
   */
  setBeforePublish(callback: BeforePublish | undefined): void {
    this.#beforePublish = callback;
  }

  /** Whether the revision served is `revision` or, as far as the store can tell, newer than it (./revision-order.ts). */
  servesAtLeast(revision: string): Promise<boolean> {
    return servedAtLeast(this.#backend, this.#published?.snapshot.revision, revision, this.#log);
  }

  /** The revision the store's source holds as its newest now, without loading it (./revision-order.ts). */
  newestInStore(): Promise<string | undefined> {
    return newestInStore(this.#backend, this.#log);
  }

  /** Called after every load of a new revision: published, refused or failed (the metrics count them). */
  onLoad(listener: LoadListener): () => void {
    return this.#events.onLoad(listener);
  }

  /** Called after every write that reached the store, whatever its result (the metrics count them). */
  onWrite(listener: WriteListener): () => void {
    return this.#events.onWrite(listener);
  }

  status(): StoreStatus {
    const { details, internal } = this.#backend.describe();
    return { published: this.#published, lastLoad: this.#lastLoad, details, internal: internal ?? {} };
  }

  /** Resolves once every load and write queued so far has finished, its history entry too. */
  async idle(): Promise<void> {
    await this.#writes.settled();
    await this.#queue.idle();
    await this.#history.settled();
  }

  describe(): BackendDescription {
    return this.#backend.describe();
  }

  /** Opens the backend, starts watching, and waits (a bounded time) for the first revision. */
  async start(): Promise<void> {
    await this.#backend.open();
    this.#backend.watch((reason) => void this.reload(reason));
    const first = this.reload('start');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([first, new Promise((resolve) => (timer = setTimeout(resolve, START_WAIT_MS)))]);
    clearTimeout(timer);
    // A store nothing else changes would never become servable: say so now, not on /ready forever.
    if (!this.#published && this.#refused && this.#backend.describe().fixed) {
      await this.stop();
      const problems = this.#refused.problems.slice(0, 20).map(formatProblem).join('; ');
      throw new StartupError(`the data cannot be served (${this.#refused.error}): ${problems}`);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    // Writes still under way finish their turn; one waiting to try again gives up.
    await this.idle();
    await this.#backend.close();
  }

  /** Loads the store's newest revision; calls made while one is queued share it. */
  reload(reason: string): Promise<void> {
    this.#queuedLoad ??= this.#queue.run(async () => {
      this.#queuedLoad = undefined;
      await this.#load(reason);
    });
    return this.#queuedLoad;
  }

  /**
   * Applies, stores and publishes one change set — a REST write is a set of one — as one
   * revision; the answer comes once it is stored. A dry run answers the same and stores nothing.
   */
  write(request: ChangeSetRequest, options?: WriteOptions): Promise<WriteResult> {
    return this.#writes.write(request, options);
  }

  async #load(reason: string, lookedJustNow = false): Promise<void> {
    if (this.#stopped) return;
    clearTimeout(this.#retryTimer);
    const at = new Date().toISOString();
    const served = this.#published?.snapshot.revision;
    let result;
    try {
      result = await this.#backend.load({ served, refused: this.#refused?.revision, lookedJustNow });
    } catch (error) {
      this.#loadFailed(error, at, reason);
      return;
    }
    this.#retry.reset();
    if ('unchanged' in result) {
      // Still the served revision: a report of an earlier fault is over. Still the refused one: it stands.
      if (result.unchanged === served && this.#lastLoad?.ok !== true) this.#lastLoad = { at, ok: true, revision: served };
      return;
    }
    await this.#judgeAndPublish(result.loaded, at, reason);
  }

  async #judgeAndPublish(loaded: LoadedRevision, at: string, reason: string): Promise<void> {
    const served = this.#published?.snapshot.revision;
    if (!this.#published) this.#start ??= await readStartHistory(this.#backend, loaded, this.#acceptShrink, this.#log, this.#history);
    const baseline = this.#published?.snapshot ?? this.#start?.baseline;
    const { revision } = loaded;
    // Building and judging a large fleet are the longest steps of a reload: polls get a turn
    // after each (about 30 ms apiece at 50,000 clusters).
    const built = buildRevision(loaded, this.#published?.snapshot ?? this.#start?.previous);
    await yieldToEventLoop();
    const judged = judgeRevision(loaded, built, baseline, this.#acceptShrink, this.#published?.retired ?? this.#start?.retired);
    await yieldToEventLoop();
    const { judgement } = judged;
    if (!judgement.publish) {
      // Each problem with its line, before anything reports the refusal (bounded: ./refused-problems.ts).
      const blocking = await locateRefusedProblems(this.#backend, revision, judgement.blocking);
      const error = `${blocking.length} problem(s) in revision ${revision}`;
      this.#refused = { revision, error, problems: blocking };
      this.#lastLoad = nextLoadReport(this.#lastLoad, { at, ok: false, revision, error, problems: blocking });
      // warn, not error: the service goes on serving the last good revision; the fix is in the data.
      const problems = blocking.slice(0, 50).map(formatProblem);
      this.#log.warn(
        { reason, revision, served_revision: served ?? null, ...sizeOf(judged.snapshot), errors: blocking.length, problems },
        served ? `revision ${revision} refused, still serving revision ${served}: ${error}` : `revision ${revision} refused: ${error}`,
      );
      this.#events.loaded({ result: 'refused', revision });
      this.#history.refused(judged.snapshot, blocking);
      // Nothing served yet (a restart on a refused revision): the newest earlier one that passes.
      const fallback = this.#published ? undefined : this.#start?.fallback;
      if (fallback) {
        await this.#publishJudged(fallback, 'the newest revision was refused at start');
        this.#log.warn({ revision: fallback.revision.revision, refused: revision }, `serving ${fallback.revision.revision}, the newest earlier revision that passes`);
      }
      return;
    }
    this.#refused = undefined;
    this.#lastLoad = { at, ok: true, revision };
    if (revision === served) return;
    await this.#publishJudged(judged, reason);
  }

  async #publishJudged(judged: JudgedRevision, reason: string): Promise<void> {
    const previous = this.#published?.snapshot.revision ?? null;
    const { snapshot } = judged;
    const warnings = judged.judgement.problems.filter((p) => !isError(p));
    await this.#publish({ snapshot, sources: judged.revision.sources, problems: warnings });
    this.#log.info({ revision: snapshot.revision, previous, reason, ...sizeOf(snapshot), warnings: warnings.length }, 'published a new revision');
    const reused = warnings.filter((p) => p.code === 'credential_generation_reused').slice(0, 50).map(formatProblem);
    if (reused.length > 0) this.#log.warn({ revision: snapshot.revision, problems: reused }, 'clusters deleted before are back at a credential_generation their old tokens have');
    this.#events.loaded({ result: 'published', revision: snapshot.revision });
    await keepForRestart(this.#backend, snapshot, this.#log, this.#published?.retired);
  }

  #loadFailed(error: unknown, at: string, reason: string): void {
    const message = `the store cannot be read now: ${describeError(error)}`;
    this.#lastLoad = nextLoadReport(this.#lastLoad, { at, ok: false, reason: error instanceof StoreUnavailable ? error.reason : 'io', error: message, problems: [] });
    const served = this.#published?.snapshot.revision ?? null;
    this.#log[error instanceof StoreUnavailable ? 'warn' : 'error'](
      { err: error instanceof StoreUnavailable ? undefined : error, reason, served_revision: served, retry_in_ms: this.#retry.peek() },
      served ? `${message}; still serving ${served}` : `${message}; nothing is served yet`,
    );
    this.#events.loaded({ result: 'failed' });
    if (this.#stopped) return;
    this.#retryTimer = setTimeout(() => void this.reload('retry after a failed load'), this.#retry.next() ?? MAX_RETRY_MS);
    this.#retryTimer.unref();
  }

  /** `facts`: what is known of the revision besides what the store tells (a write's author and message). */
  async #publish(revision: Omit<PublishedRevision, 'publishedAt' | 'retired'>, facts?: RevisionFacts): Promise<void> {
    await waitBeforePublish(this.#beforePublish, revision.snapshot.revision, this.#log);
    const previous = this.#published;
    const next = { ...revision, publishedAt: new Date(), retired: retiredOnPublish(previous, this.#start, revision.snapshot) };
    this.#published = next;
    this.#events.published(next, previous);
    this.#history.published(next.snapshot, facts);
  }

  /** What a write may see and do of this runner (./write-attempts.ts). */
  #writeSide(): WriteSide {
    return {
      backend: this.#backend,
      log: this.#log,
      queue: this.#queue,
      writeTimeoutMs: this.#writeTimeoutMs,
      turns: this.#writerTurns,
      stopped: () => this.#stopped,
      published: () => this.#published,
      refused: () => this.#refused,
      load: (reason, lookedJustNow) => this.#load(reason, lookedJustNow),
      publishWrite: async (snapshot, sources, base, set) => {
        this.#lastLoad = { at: new Date().toISOString(), ok: true, revision: snapshot.revision };
        await this.#publish({ snapshot, sources, problems: base.problems }, writeFacts(set));
        await keepForRestart(this.#backend, snapshot, this.#log, this.#published?.retired);
      },
    };
  }
}

