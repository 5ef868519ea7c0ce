// A kept answer (./answer-store.ts) as one poll sees it: its bytes and tags, and whose answer it
// is. Made for the poll and let go after it: the store keeps numbers, not an object per answer.
import type { PerClusterEndpoint } from '../domain/projections/index.ts';
import type { AnswerStore } from './answer-store.ts';
import type { BodySource } from './encoded-body.ts';
import type { ResponseSubject } from './served-response.ts';

export class StoredBody implements BodySource, ResponseSubject {
  readonly kind = 'body';
  readonly #store: AnswerStore;
  /** The answer's number in the store. */
  readonly answer: number;

  constructor(store: AnswerStore, answer: number) {
    this.#store = store;
    this.answer = answer;
  }

  get etag(): string {
    return this.#store.tag(this.answer);
  }

  get gzipEtag(): string {
    return this.#store.gzipTag(this.answer);
  }

  get length(): number {
    return this.#store.plainLength(this.answer);
  }

  get gzipLength(): number {
    return this.#store.gzipLength(this.answer);
  }

  get body(): Buffer {
    return this.#store.plain(this.answer);
  }

  gzipped(): Buffer {
    return this.#store.gzipped(this.answer);
  }

  /** Which encoding made it: the same number as long as the store keeps these bytes. */
  get madeBy(): number {
    return this.#store.madeBy(this.answer);
  }

  get clusterId(): string {
    return this.#store.clusterId(this.answer);
  }

  get endpoint(): PerClusterEndpoint {
    return this.#store.endpoint(this.answer);
  }
}
