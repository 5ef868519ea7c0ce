// A read response as one revision serves it: an encoded body (./encoded-body.ts) with the
// headers that name the revision (X-Config-Revision), made once per revision, so that every
// later poll is a lookup and the writing of a few headers.
import type { PerClusterEndpoint } from '../domain/projections/index.ts';
import type { BodySource, EncodedDocument, OversizedBody } from './encoded-body.ts';

/** Whose answer a per-cluster response is: a poll of it is recorded under this cluster and endpoint. */
export interface ResponseSubject {
  readonly clusterId: string;
  readonly endpoint: PerClusterEndpoint;
}

const NO_HEADERS: readonly string[] = Object.freeze([]);

/**
 * An encoded body as one revision serves it: the same bytes, with that revision's headers.
 *
 * Its headers are written out for each poll rather than kept: an array of 20 is made in well
 * under a microsecond, while one kept per variant and body took about 560 bytes an answer —
 * 84 MB for the 150,000 answers of 50,000 clusters once each had been polled plain and gzip
 * (docs/decisions/0044-what-an-answer-keeps.md).
 */
export class ServedBody {
  readonly kind = 'body';
  readonly encoded: BodySource;
  readonly revision: string;
  /** The cluster and endpoint it answers; undefined for a fleet listing. */
  readonly subject: ResponseSubject | undefined;

  /** `revision` is the snapshot's, sent as X-Config-Revision. */
  constructor(encoded: BodySource, revision: string, subject?: ResponseSubject) {
    this.encoded = encoded;
    this.revision = revision;
    this.subject = subject;
  }

  get etag(): string {
    return this.encoded.etag;
  }

  get gzipEtag(): string {
    return this.encoded.gzipEtag;
  }

  /** The plain bytes (kept, or inflated again from the gzip copy). */
  get body(): Buffer {
    return this.encoded.body;
  }

  gzipped(): Buffer {
    return this.encoded.gzipped();
  }

  /**
   * Response headers of a 200: [name, value, name, value, ...], followed by `trailing` (the
   * headers of the connection the answer goes out on).
   */
  headers(gzip: boolean, trailing: readonly string[] = NO_HEADERS): (string | number)[] {
    const headers = this.#common(gzip ? this.encoded.gzipEtag : this.encoded.etag);
    headers.push('content-type', 'application/json', 'content-length');
    if (gzip) headers.push(this.encoded.gzipLength, 'content-encoding', 'gzip');
    else headers.push(this.encoded.length);
    for (const item of trailing) headers.push(item);
    return headers;
  }

  /** Response headers of a 304, followed by `trailing` (see headers()). */
  notModifiedHeaders(gzip: boolean, trailing: readonly string[] = NO_HEADERS): (string | number)[] {
    const headers = this.#common(gzip ? this.encoded.gzipEtag : this.encoded.etag);
    for (const item of trailing) headers.push(item);
    return headers;
  }

  #common(tag: string): (string | number)[] {
    return ['etag', tag, 'x-config-revision', this.revision, 'vary', 'Accept-Encoding', 'cache-control', 'no-cache'];
  }
}

export type ServedResponse = ServedBody | OversizedBody;

/** The encoded response served at `revision` (an oversized one has no headers to carry it). */
export function forRevision(encoded: EncodedDocument, revision: string, subject?: ResponseSubject): ServedResponse {
  return encoded.kind === 'oversized' ? encoded : new ServedBody(encoded, revision, subject);
}
