// The one owner of what is served, and the store's face to the layers above. Whatever the
// backend, a new revision goes the same way: load it whole, judge it against the revision
// served now, publish it atomically or keep the last good one and say why (./reloads.ts); and
// a write goes the same way: apply it to the served revision, commit it through the backend,
// publish, write the audit line (../writes/). Both publish through one object
// (./publication.ts). Loads and writes run one at a time, in one queue; writes also keep their
// own order, and one whose store keeps moving under it waits between its tries outside the
// queue, so loads go on meanwhile. The backend's own checks (a watcher's) take their turn in
// the same queue, so that none sees half a write.
import type { ReceiverHosts } from '../../domain/receiver-hosts.ts';
import type { Logger } from 'pino';
import { formatProblem } from '../../domain/problem.ts';
import type { ChangeSetRequest } from '../../domain/writes/change-set.ts';
import type { Backend, BackendDescription } from '../backend.ts';
import type { BeforePublish } from './before-publish.ts';
import type { PublishedRevision, PublishListener } from './published-revision.ts';
import type { StoreStatus } from './store-status.ts';
import { newestInStore, servedAtLeast } from './revision-order.ts';
import { SerialQueue } from './serial-queue.ts';
import { type LoadListener, StoreEvents, type WriteListener } from './store-events.ts';
import type { WriteOptions, WriteResult } from '../writes/write-path.ts';
import { StoreWrites } from '../writes/store-writes.ts';
import {
  type ClustersChangedListener,
  type HistoryPage,
  HISTORY_QUIET_MS,
  HISTORY_WAIT_MS,
  type HistoryQuery,
  RevisionHistory,
} from '../history/revision-history.ts';
import { StartupError } from '../../shared/startup-error.ts';
import { withTimeout } from '../../shared/with-timeout.ts';
import { Publication } from './publication.ts';
import { Reloads } from './reloads.ts';

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
  /**
   * RECEIVER_HOSTS: what a cluster's receiver_url may name, for the judge and the writes; undefined: receivers are off.
   */
  receiverHosts?: ReceiverHosts;
}

export class StoreRunner {
  readonly #backend: Backend;
  readonly #log: Logger;
  readonly #queue = new SerialQueue();
  readonly #events = new StoreEvents();
  readonly #history: RevisionHistory;
  readonly #publication: Publication;
  readonly #reloads: Reloads;
  readonly #writes: StoreWrites;
  #stopped = false;
  /** RECEIVER_HOSTS, as every revision and write here is judged with it. */
  readonly receiverHosts: ReceiverHosts | undefined;

  constructor(backend: Backend, options: StoreRunnerOptions) {
    this.#backend = backend;
    this.#log = options.log;
    this.#history = new RevisionHistory(
      async (revision) => backend.revisionFacts?.(revision),
      undefined,
      undefined,
      () => this.#queue.quietFor(HISTORY_QUIET_MS, HISTORY_WAIT_MS),
    );
    const publication = new Publication(backend, options.log, this.#events, this.#history);
    this.#publication = publication;
    const queue = this.#queue;
    const acceptShrink = options.acceptShrink ?? [];
    const { receiverHosts } = options;
    this.receiverHosts = receiverHosts;
    const reloads = new Reloads({
      backend,
      log: options.log,
      queue,
      publication,
      events: this.#events,
      acceptShrink,
      receiverHosts,
    });
    this.#reloads = reloads;
    const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
    const path = { backend, log: options.log, queue, writeTimeoutMs, publication, reloads, receiverHosts };
    this.#writes = new StoreWrites(path, this.#events);
  }

  /**
   * A page of the revisions judged, newest first (../history/revision-history.ts); undefined
   * when `before` is not in the list.
   */
  revisions(query: HistoryQuery): Promise<HistoryPage | undefined> {
    return this.#history.list(query);
  }

  published(): PublishedRevision | undefined {
    return this.#publication.published();
  }

  onPublish(listener: PublishListener): () => void {
    return this.#events.onPublish(listener);
  }

  /**
   * Which clusters' answers each published revision changed, told after its publication
   * (../history/revision-history.ts).
   */
  onClustersChanged(listener: ClustersChangedListener): () => void {
    return this.#history.onClustersChanged(listener);
  }

  /**
   * The one step a publication (by a load or a write) waits for before the new revision is
   * served, bounded (./before-publish.ts).
   */
  setBeforePublish(callback: BeforePublish | undefined): void {
    this.#publication.setBeforePublish(callback);
  }

  /** Whether the revision served is `revision` or, as far as the store can tell, newer (./revision-order.ts). */
  servesAtLeast(revision: string): Promise<boolean> {
    return servedAtLeast(this.#backend, this.published()?.snapshot.revision, revision, this.#log);
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
    return { published: this.published(), lastLoad: this.#publication.lastLoad(), details, internal: internal ?? {} };
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

  /** Opens the backend, waits (a bounded time) for the first revision, and watches once it is loaded. */
  async start(): Promise<void> {
    await this.#backend.open();
    const first = this.reload('start');
    // The watch starts after the first load: a file watcher's first scan (a stat of every file,
    // some 0.8 s of this thread at 50,000 files) would share the start's thread and file reads.
    // Each backend's watch looks once, when it is ready, for what changed before it was.
    const watch = () => {
      if (this.#stopped) return;
      this.#backend.watch(
        (reason) => void this.reload(reason),
        (check) => this.#queue.run(check),
      );
    };
    first.then(watch, watch);
    await withTimeout(first, START_WAIT_MS, undefined);
    // A store nothing else changes would never become servable: say so now, not on /ready forever.
    const refused = this.#publication.refused();
    if (!this.published() && refused && this.#backend.describe().fixed) {
      await this.stop();
      const problems = refused.problems.slice(0, 20).map(formatProblem).join('; ');
      throw new StartupError(`the data cannot be served (${refused.error}): ${problems}`);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#reloads.stop();
    // Writes still under way finish their turn; one waiting to try again gives up.
    this.#writes.stop();
    await this.idle();
    await this.#backend.close();
  }

  /** Loads the store's newest revision; calls made while one is queued share it. */
  reload(reason: string): Promise<void> {
    return this.#reloads.reload(reason);
  }

  /**
   * Applies, stores and publishes one change set — a REST write is a set of one — as one
   * revision; the answer comes once it is stored. A dry run answers the same and stores nothing.
   */
  write(request: ChangeSetRequest, options?: WriteOptions): Promise<WriteResult> {
    return this.#writes.write(request, options);
  }
}
