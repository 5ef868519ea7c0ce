// A reload: the store's newest revision loaded whole, built and judged against the revision
// published now (domain/judge.ts), then published through the one Publication, or refused with
// the last good revision kept and the reason said. A store that cannot be read is tried again
// with a growing pause (../../shared/retry.ts). Loads run in the runner's queue, between writes.
import type { ReceiverHosts } from '../../domain/receiver-hosts.ts';
import type { Logger } from 'pino';
import { formatProblem, isError } from '../../domain/problem.ts';
import type { Backend, LoadedRevision } from '../backend.ts';
import { describeError, StoreUnavailable } from '../errors.ts';
import { readStartHistory } from '../history/start-history.ts';
import { RetryPolicy } from '../../shared/retry.ts';
import { yieldToEventLoop } from './event-loop.ts';
import { buildRevisionInSlices, type JudgedRevision, judgeRevision } from './judged-revision.ts';
import type { Publication } from './publication.ts';
import { locateRefusedProblems } from './refused-problems.ts';
import type { SerialQueue } from './serial-queue.ts';
import type { StoreEvents } from './store-events.ts';
import { nextLoadReport, sizeOf } from './store-status.ts';

/** The first retry after a load failed for a fault (not for problems in the data); doubled up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

export interface ReloadsOptions {
  backend: Backend;
  log: Logger;
  /** The runner's queue: loads and writes never overlap. */
  queue: SerialQueue;
  publication: Publication;
  events: StoreEvents;
  /** GUARD_ACCEPT_REVISION: revisions whose mass shrink is meant. */
  acceptShrink: readonly string[];
  /** RECEIVER_HOSTS, for the judge. */
  receiverHosts: ReceiverHosts | undefined;
}

export class Reloads {
  readonly #backend: Backend;
  readonly #log: Logger;
  readonly #queue: SerialQueue;
  readonly #publication: Publication;
  readonly #events: StoreEvents;
  readonly #acceptShrink: readonly string[];
  readonly #receiverHosts: ReceiverHosts | undefined;
  /** A load queued and not started yet: further requests share it. */
  #queuedLoad: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  readonly #retry = new RetryPolicy({ firstMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_MS });
  #stopped = false;

  constructor(options: ReloadsOptions) {
    this.#backend = options.backend;
    this.#log = options.log;
    this.#queue = options.queue;
    this.#publication = options.publication;
    this.#events = options.events;
    this.#acceptShrink = options.acceptShrink;
    this.#receiverHosts = options.receiverHosts;
  }

  /** Loads the store's newest revision in the queue; calls made while one is queued share it. */
  reload(reason: string): Promise<void> {
    this.#queuedLoad ??= this.#queue.run(async () => {
      this.#queuedLoad = undefined;
      await this.loadNow(reason);
    });
    return this.#queuedLoad;
  }

  /** No more loads; a retry waiting for its time is dropped. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
  }

  /**
   * Loads the store's newest revision now: only from within the queue (a write's turn loads
   * this way). `lookedJustNow`: see KnownRevisions.
   */
  async loadNow(reason: string, lookedJustNow = false): Promise<void> {
    if (this.#stopped) return;
    clearTimeout(this.#retryTimer);
    const at = new Date().toISOString();
    const served = this.#publication.published()?.snapshot.revision;
    let result;
    try {
      result = await this.#backend.load({ served, refused: this.#publication.refused()?.revision, lookedJustNow });
    } catch (error) {
      this.#loadFailed(error, at, reason);
      return;
    }
    this.#retry.reset();
    if ('unchanged' in result) {
      // Still the served revision: a report of an earlier fault is over. Still the refused one: it stands.
      if (result.unchanged === served && this.#publication.lastLoad()?.ok !== true)
        this.#publication.reportLoad({ at, ok: true, revision: served });
      return;
    }
    await this.#judgeAndPublish(result.loaded, at, reason);
  }

  async #judgeAndPublish(loaded: LoadedRevision, at: string, reason: string): Promise<void> {
    const publication = this.#publication;
    const published = publication.published();
    const served = published?.snapshot.revision;
    if (!published)
      publication.start ??= await readStartHistory(
        this.#backend,
        loaded,
        this.#acceptShrink,
        this.#log,
        publication.history,
        this.#receiverHosts,
      );
    const start = publication.start;
    const baseline = published?.snapshot ?? start?.baseline;
    const { revision } = loaded;
    // Building and judging a large fleet are the longest steps of a reload: the building and
    // the fleet's analysis run in slices, and polls get a turn after the judgement.
    const built = await buildRevisionInSlices(loaded, published?.snapshot ?? start?.previous);
    const judged = judgeRevision(
      loaded,
      built,
      baseline,
      this.#acceptShrink,
      published?.retired ?? start?.retired,
      this.#receiverHosts,
    );
    await yieldToEventLoop();
    const { judgement } = judged;
    if (!judgement.publish) {
      // Each problem with its line, before anything reports the refusal (bounded: ./refused-problems.ts).
      const blocking = await locateRefusedProblems(this.#backend, revision, judgement.blocking);
      const error = `${blocking.length} problem(s) in revision ${revision}`;
      publication.setRefused({ revision, error, problems: blocking });
      publication.reportLoad(
        nextLoadReport(publication.lastLoad(), { at, ok: false, revision, error, problems: blocking }),
      );
      // warn, not error: the service goes on serving the last good revision; the fix is in the data.
      const problems = blocking.slice(0, 50).map(formatProblem);
      this.#log.warn(
        {
          reason,
          revision,
          served_revision: served ?? null,
          ...sizeOf(judged.snapshot),
          errors: blocking.length,
          problems,
        },
        served
          ? `revision ${revision} refused, still serving revision ${served}: ${error}`
          : `revision ${revision} refused: ${error}`,
      );
      this.#events.loaded({ result: 'refused', revision });
      publication.history.refused(judged.snapshot, blocking);
      // Nothing served yet (a restart on a refused revision): the newest earlier one that passes.
      const fallback = published ? undefined : start?.fallback;
      if (fallback) {
        await this.#publishJudged(fallback, 'the newest revision was refused at start');
        this.#log.warn(
          { revision: fallback.revision.revision, refused: revision },
          `serving ${fallback.revision.revision}, the newest earlier revision that passes`,
        );
      }
      return;
    }
    publication.setRefused(undefined);
    publication.reportLoad({ at, ok: true, revision });
    if (revision === served) return;
    await this.#publishJudged(judged, reason);
  }

  async #publishJudged(judged: JudgedRevision, reason: string): Promise<void> {
    const previous = this.#publication.published()?.snapshot.revision ?? null;
    const { snapshot } = judged;
    const warnings = judged.judgement.problems.filter((p) => !isError(p));
    await this.#publication.publish({ snapshot, sources: judged.revision.sources, problems: warnings });
    this.#log.info(
      { revision: snapshot.revision, previous, reason, ...sizeOf(snapshot), warnings: warnings.length },
      'published a new revision',
    );
    const reused = warnings
      .filter((p) => p.code === 'credential_generation_reused')
      .slice(0, 50)
      .map(formatProblem);
    if (reused.length > 0)
      this.#log.warn(
        { revision: snapshot.revision, problems: reused },
        'clusters deleted before are back at a credential_generation their old tokens have',
      );
    this.#events.loaded({ result: 'published', revision: snapshot.revision });
    await this.#publication.keepForRestart(snapshot);
  }

  #loadFailed(error: unknown, at: string, reason: string): void {
    const message = `the store cannot be read now: ${describeError(error)}`;
    const unavailable = error instanceof StoreUnavailable;
    const report = { at, ok: false, reason: unavailable ? error.reason : 'io', error: message, problems: [] };
    this.#publication.reportLoad(nextLoadReport(this.#publication.lastLoad(), report));
    const served = this.#publication.published()?.snapshot.revision ?? null;
    this.#log[unavailable ? 'warn' : 'error'](
      { err: unavailable ? undefined : error, reason, served_revision: served, retry_in_ms: this.#retry.peek() },
      served ? `${message}; still serving ${served}` : `${message}; nothing is served yet`,
    );
    this.#events.loaded({ result: 'failed' });
    if (this.#stopped) return;
    this.#retryTimer = setTimeout(
      () => void this.reload('retry after a failed load'),
      this.#retry.next() ?? MAX_RETRY_MS,
    );
    this.#retryTimer.unref();
  }
}
