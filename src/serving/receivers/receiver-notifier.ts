// After each publication, a notice to the Flux Receiver of every cluster whose answers it
// changed, so that the cluster polls within seconds instead of its interval. Which clusters
// those are the revision history works out anyway, after the publication
// (store/history/revision-history.ts, domain/changed-clusters.ts): the notifier is told then,
// so publication never waits for it and the fleet is not walked twice. At most `concurrency`
// notices are in flight; one per cluster, and a newer notice for a cluster replaces the one
// waiting (only the newest revision matters to it). A failed notice is tried again after jittered, growing pauses
// (shared/retry.ts), unless a newer one has come meanwhile. Counted by outcome and reason,
// never by cluster (observability/receiver-series.ts).
import type { Logger } from 'pino';
import { type ClusterTokenKey, signClusterToken } from '../../domain/cluster-token.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import { RetryPolicy } from '../../shared/retry.ts';
import type { ClustersChangedListener } from '../../store/history/revision-history.ts';
import { type Notice, type NoticeOutcome, type PostOptions, postNotice } from './receiver-post.ts';

export interface ReceiverNotifierOptions extends PostOptions {
  /** The key that signs cluster tokens (the first of CLUSTER_TOKEN_KEYS). */
  tokenKey: ClusterTokenKey;
  concurrency: number;
  log: Logger;
  /** Pauses between tries: the first ceiling, the largest, how many retries. */
  retry?: { firstMs: number; maxMs: number; maxRetries: number };
}

export interface PublicationFeed {
  onClustersChanged(listener: ClustersChangedListener): () => void;
}

/** `outcome` or `outcome:reason` → how many notices ended so. */
export type NoticeCounts = ReadonlyMap<string, number>;

const DEFAULT_RETRY = { firstMs: 500, maxMs: 5_000, maxRetries: 3 };

export class ReceiverNotifier {
  readonly #options: ReceiverNotifierOptions;
  /** The newest notice of each cluster not sent yet. */
  readonly #waiting = new Map<string, Notice>();
  /** Clusters in the order their notices wait for a slot; each at most once. */
  readonly #queue: string[] = [];
  readonly #inFlight = new Set<string>();
  readonly #counts = new Map<string, number>();
  readonly #unsubscribe: () => void;
  #stopped = false;

  constructor(feed: PublicationFeed, options: ReceiverNotifierOptions) {
    this.#options = options;
    this.#unsubscribe = feed.onClustersChanged((published, ids) => this.#noticesFor(published, ids));
  }

  /** Notices ended so far, by outcome (sent, failed, skipped) and reason. */
  counts(): NoticeCounts {
    return this.#counts;
  }

  /** Notices waiting or in flight now. */
  pending(): number {
    return this.#waiting.size + this.#inFlight.size;
  }

  /** Resolves once every notice asked for so far has ended (tests). */
  async idle(): Promise<void> {
    while (this.pending() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe();
    this.#waiting.clear();
    this.#queue.length = 0;
  }

  #noticesFor(published: Snapshot, ids: readonly string[]): void {
    if (this.#stopped) return;
    for (const id of ids) {
      const cluster = published.clusters.get(id);
      if (!cluster?.receiver_url) continue;
      const token = signClusterToken(this.#options.tokenKey, id, cluster.credential_generation);
      this.#enqueue({ clusterId: id, url: cluster.receiver_url, token, revision: published.revision });
    }
  }

  #enqueue(notice: Notice): void {
    const queued = this.#waiting.has(notice.clusterId);
    this.#waiting.set(notice.clusterId, notice);
    if (!queued && !this.#inFlight.has(notice.clusterId)) this.#queue.push(notice.clusterId);
    this.#pump();
  }

  #pump(): void {
    while (!this.#stopped && this.#inFlight.size < this.#options.concurrency && this.#queue.length > 0) {
      const id = this.#queue.shift()!;
      const notice = this.#waiting.get(id);
      if (notice === undefined) continue;
      this.#waiting.delete(id);
      this.#inFlight.add(id);
      void this.#deliver(notice).finally(() => {
        this.#inFlight.delete(id);
        // A newer notice came while this one was out: its turn now.
        if (this.#waiting.has(id)) this.#queue.push(id);
        this.#pump();
      });
    }
  }

  async #deliver(notice: Notice): Promise<void> {
    const retry = new RetryPolicy({ ...(this.#options.retry ?? DEFAULT_RETRY), jitter: true });
    for (;;) {
      const outcome = await postNotice(notice, this.#options).catch((error: unknown): NoticeOutcome => ({
        result: 'failed',
        reason: 'connection',
        detail: String(error),
      }));
      if (outcome.result !== 'failed') return this.#ended(notice, outcome);
      const pause = retry.next();
      // Given up, or a newer notice for the cluster will be sent instead.
      const replaced = this.#waiting.has(notice.clusterId);
      if (pause === undefined || this.#stopped || replaced) return this.#ended(notice, outcome);
      await new Promise((resolve) => setTimeout(resolve, pause).unref());
    }
  }

  #ended(notice: Notice, outcome: NoticeOutcome): void {
    const key = outcome.result === 'sent' ? 'sent' : `${outcome.result}:${outcome.reason}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    const fields = { cluster: notice.clusterId, revision: notice.revision, receiver: new URL(notice.url).host };
    if (outcome.result === 'sent') this.#options.log.debug(fields, 'receiver notified');
    else {
      const { reason, detail } = outcome;
      this.#options.log.warn({ ...fields, reason, detail }, `receiver notice ${outcome.result}`);
    }
  }
}
