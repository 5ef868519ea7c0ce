// The read responses of the revision being served. It follows the store runner's
// publications: a new revision swaps one reference, so a request that took the current
// responses keeps a consistent view even while the next revision is published. The encoded
// bodies outlive revisions (EncodedBodies), so a publication re-encodes only the responses
// whose records changed, and only when they are next asked for.
import type { Published } from '../store/store-runner.ts';
import { EncodedBodies } from './encoded-bodies.ts';
import { RevisionResponses } from './revision-responses.ts';

export interface PublicationSource {
  published(): Published | undefined;
  onPublish(listener: (next: Published) => void): () => void;
}

export class ServedResponses {
  #current: RevisionResponses | undefined;
  /** Shared by every revision this process serves. */
  readonly bodies = new EncodedBodies();

  constructor(source: PublicationSource) {
    const published = source.published();
    if (published) this.#current = new RevisionResponses(published.snapshot, this.bodies);
    source.onPublish((next) => {
      this.#current = new RevisionResponses(next.snapshot, this.bodies);
    });
  }

  /** The responses of the revision served now, or undefined before the first one. */
  current(): RevisionResponses | undefined {
    return this.#current;
  }
}
