// A read response as one revision serves it: an encoded body (./encoded-body.ts) with the
// headers that name the revision (X-Config-Revision), made once per revision, so that every
// later poll is a lookup.
import type { PerClusterEndpoint } from '../domain/projections/index.ts';
import type { EncodedBody, EncodedDocument, OversizedBody } from './encoded-body.ts';

/** Whose answer a per-cluster response is: a poll of it is recorded under this cluster and endpoint. */
export interface ResponseSubject {
  readonly clusterId: string;
  readonly endpoint: PerClusterEndpoint;
}

const NO_HEADERS: readonly string[] = Object.freeze([]);

/** An encoded body as one revision serves it: the same bytes, with that revision's headers. */
export class ServedBody {
  readonly kind = 'body';
  readonly encoded: EncodedBody;
  readonly revision: string;
  /** The cluster and endpoint it answers; undefined for a fleet listing. */
  readonly subject: ResponseSubject | undefined;
  readonly etag: string;
  readonly gzipEtag: string;
  // Built on first use: most clusters poll with one encoding, so most responses need one set.
  #identityHeaders: readonly (string | number)[] | undefined;
  #gzipHeaders: readonly (string | number)[] | undefined;
  #notModified: readonly (string | number)[] | undefined;
  #notModifiedGzip: readonly (string | number)[] | undefined;
  /** The connection's headers the four above end with (see headers()). */
  #trailing: readonly string[] = NO_HEADERS;

  /** `revision` is the snapshot's, sent as X-Config-Revision. */
  constructor(encoded: EncodedBody, revision: string, subject?: ResponseSubject) {
    this.encoded = encoded;
    this.revision = revision;
    this.subject = subject;
    this.etag = encoded.etag;
    this.gzipEtag = encoded.gzipEtag;
  }

  /** The plain bytes (see EncodedBody.body). */
  get body(): Buffer {
    return this.encoded.body;
  }

  gzipped(): Buffer {
    return this.encoded.gzipped();
  }

  /**
   * Response headers of a 200: [name, value, name, value, ...], followed by `trailing` (the
   * headers of the connection the answer goes out on). The array is made once and handed to
   * every poll as it is, so that a poll copies nothing; `trailing` is one of a few constant
   * arrays (a server's connections are all TLS or all plain), and another one makes the arrays
   * anew.
   */
  headers(gzip: boolean, trailing: readonly string[] = NO_HEADERS): readonly (string | number)[] {
    if (trailing !== this.#trailing) this.#follow(trailing);
    if (!gzip) {
      this.#identityHeaders ??= [
        ...this.#common(this.etag),
        'content-type',
        'application/json',
        'content-length',
        this.encoded.length,
        ...trailing,
      ];
      return this.#identityHeaders;
    }
    this.#gzipHeaders ??= [
      ...this.#common(this.gzipEtag),
      'content-type',
      'application/json',
      'content-length',
      this.gzipped().length,
      'content-encoding',
      'gzip',
      ...trailing,
    ];
    return this.#gzipHeaders;
  }

  /** Response headers of a 304, followed by `trailing` (see headers()). */
  notModifiedHeaders(gzip: boolean, trailing: readonly string[] = NO_HEADERS): readonly (string | number)[] {
    if (trailing !== this.#trailing) this.#follow(trailing);
    if (gzip) return (this.#notModifiedGzip ??= [...this.#common(this.gzipEtag), ...trailing]);
    return (this.#notModified ??= [...this.#common(this.etag), ...trailing]);
  }

  #follow(trailing: readonly string[]): void {
    this.#trailing = trailing;
    this.#identityHeaders = this.#gzipHeaders = this.#notModified = this.#notModifiedGzip = undefined;
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
