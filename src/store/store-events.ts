// Who is told what the store runner did: each publication (the served responses follow it),
// and how each load and each write ended (the metrics count them). Listeners are the
// service's own code and run in the runner's queue, so they must be quick.
import type { LoadListener, LoadOutcome, Published, PublishListener, WriteListener, WriteOutcome } from './published.ts';

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

  published(next: Published, previous: Published | undefined): void {
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
