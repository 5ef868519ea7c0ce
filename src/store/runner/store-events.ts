// Who is told what the store runner did: each publication (the served responses follow it),
// and how each load and each write ended (the metrics count them). Listeners are the
// service's own code and run in the runner's queue, so they must be quick.
import type { Collection } from '../../domain/records.ts';
import type { WriteAction } from '../../domain/writes/write-request.ts';
import type { StoreFaultReason } from '../errors.ts';
import type { PublishedRevision, PublishListener } from './published-revision.ts';

/**
 * How one load of a new revision ended: published, refused by the judge (the last good one
 * stays served), or failed (the store could not be read). A load that found the revision
 * already served or already refused ends in none of these and is not reported.
 */
export interface LoadOutcome {
  result: 'published' | 'refused' | 'failed';
  /** The revision loaded (unknown when the store could not be read). */
  revision?: string;
}

export type LoadListener = (outcome: LoadOutcome) => void;

/**
 * How one write that reached the store ended: stored, accepted but changing nothing, refused
 * by the rules (invalid, conflict, not found, stale If-Match), or failed in the store.
 */
export interface WriteOutcome {
  collection: Collection;
  action: WriteAction;
  result: 'ok' | 'unchanged' | 'refused' | 'failed';
  /** Why the store could not take it (result `failed` only). */
  reason?: StoreFaultReason;
}

export type WriteListener = (outcome: WriteOutcome) => void;

export class StoreEvents {
  readonly #published = new Set<PublishListener>();
  readonly #loaded = new Set<LoadListener>();
  readonly #written = new Set<WriteListener>();

  /** Each returns the function that unsubscribes. */
  onPublish(listener: PublishListener): () => void {
    return subscribe(this.#published, listener);
  }

  onLoad(listener: LoadListener): () => void {
    return subscribe(this.#loaded, listener);
  }

  onWrite(listener: WriteListener): () => void {
    return subscribe(this.#written, listener);
  }

  published(next: PublishedRevision, previous: PublishedRevision | undefined): void {
    for (const listener of this.#published) listener(next, previous);
  }

  loaded(outcome: LoadOutcome): void {
    for (const listener of this.#loaded) listener(outcome);
  }

  written(outcome: WriteOutcome): void {
    for (const listener of this.#written) listener(outcome);
  }
}

function subscribe<L>(listeners: Set<L>, listener: L): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
