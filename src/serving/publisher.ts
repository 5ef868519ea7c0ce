// Holds the snapshot being served. Publishing swaps one reference, so a request that took
// the current cache keeps a consistent view even while a new revision is published.
import type { Snapshot } from '../domain/snapshot.ts';
import { ResponseCache } from './response-cache.ts';

export type SnapshotListener = (snapshot: Snapshot, previous: Snapshot | undefined) => void;

export class SnapshotPublisher {
  #current: ResponseCache | undefined;
  #publishedAt: Date | undefined;
  readonly #listeners = new Set<SnapshotListener>();

  current(): ResponseCache | undefined {
    return this.#current;
  }

  get publishedAt(): Date | undefined {
    return this.#publishedAt;
  }

  publish(snapshot: Snapshot): void {
    const previous = this.#current?.snapshot;
    if (previous === snapshot) return;
    this.#current = new ResponseCache(snapshot);
    this.#publishedAt = new Date();
    for (const listener of this.#listeners) listener(snapshot, previous);
  }

  onPublish(listener: SnapshotListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
