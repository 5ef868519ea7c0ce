// Which response table (./response-table.ts) is current: the one of the revision published
// now. It follows the store runner's publications: a new revision swaps one reference, so a request that took the
// current
// responses keeps a consistent view even while the next revision is published. The encoded
// bodies outlive revisions (EncodedBodyCache), so a publication re-encodes only the responses
// whose records changed, and only when they are next asked for.
import type { PublishedRevision } from '../store/runner/published-revision.ts';
import { EncodedBodyCache } from './encoded-body-cache.ts';
import { ResponseTable } from './response-table.ts';

export interface PublicationSource {
  published(): PublishedRevision | undefined;
  onPublish(listener: (next: PublishedRevision) => void): () => void;
}

export class CurrentResponses {
  #current: ResponseTable | undefined;
  /** Shared by every revision this process serves. */
  readonly bodies = new EncodedBodyCache();

  constructor(source: PublicationSource) {
    const published = source.published();
    if (published) this.#current = new ResponseTable(published.snapshot, this.bodies);
    source.onPublish((next) => {
      this.#current = new ResponseTable(next.snapshot, this.bodies);
    });
  }

  /** The responses of the revision served now, or undefined before the first one. */
  current(): ResponseTable | undefined {
    return this.#current;
  }
}
