// A read response turned into ready bytes once, so that every later poll is a lookup. It has
// two parts: the encoded body (the JSON bytes, their ETag and a gzip copy), which depends only on the document and is kept across revisions
// while the document does not change; and the headers, which name the revision
// (X-Config-Revision) and are therefore made per revision.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { MAX_RESPONSE_BYTES, type PerClusterEndpoint } from '../domain/projections/index.ts';
import type { PlainBodyCache, PlainBytesHolder } from './plain-body-cache.ts';

/** A document's bytes, independent of the revision that serves them. */
export class EncodedBody implements PlainBytesHolder {
  readonly kind = 'body';
  /** Strong validator of the identity body: a hash of its bytes. */
  readonly etag: string;
  /** The same hash marked for the gzip variant (a different representation needs its own tag). */
  readonly gzipEtag: string;
  /** Length of the plain bytes. */
  readonly length: number;
  /** The plain bytes while they are kept (always, without a cache); see PlainBodyCache. */
  plain: Buffer | undefined;
  plainUsed = false;
  readonly #gzip: Buffer;
  readonly #cache: PlainBodyCache | undefined;

  /**
   * The gzip copy is made at once and kept. The plain bytes are kept within `cache`'s budget
   * when one is given, else for good.
   */
  constructor(body: Buffer, cache?: PlainBodyCache) {
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    this.etag = `"${hash}"`;
    this.gzipEtag = `"${hash}-gzip"`;
    this.length = body.length;
    this.#gzip = ownBuffer(gzipSync(body, { level: 6 }));
    this.#cache = cache;
    if (cache === undefined) this.plain = body;
    else cache.admit(this, body);
  }

  /** The plain bytes: kept, or inflated again from the gzip copy. */
  get body(): Buffer {
    const plain = this.plain;
    if (plain !== undefined) {
      this.plainUsed = true;
      return plain;
    }
    const inflated = ownBuffer(gunzipSync(this.#gzip));
    this.#cache!.admit(this, inflated);
    return inflated;
  }

  gzipped(): Buffer {
    return this.#gzip;
  }
}

/** The answer would be cut by the consumer's 900 KiB limit: it is refused, never truncated. */
export interface OversizedBody {
  readonly kind: 'oversized';
  readonly bytes: number;
}

export type EncodedResponse = EncodedBody | OversizedBody;

export function encodeInputsDocument(inputs: unknown[], cache?: PlainBodyCache): EncodedResponse {
  const body = Buffer.from(JSON.stringify({ inputs }), 'utf8');
  if (body.length >= MAX_RESPONSE_BYTES) return { kind: 'oversized', bytes: body.length };
  return new EncodedBody(ownBuffer(body), cache);
}

/** Whose answer a per-cluster response is: a poll of it is recorded under this cluster and endpoint. */
export interface ResponseSubject {
  readonly clusterId: string;
  readonly endpoint: PerClusterEndpoint;
}

/** An encoded body as one revision serves it: the same bytes, with that revision's headers. */
export class PreparedBody {
  readonly kind = 'body';
  readonly encoded: EncodedBody;
  readonly revision: string;
  /** The cluster and endpoint it answers; undefined for a fleet listing. */
  readonly subject: ResponseSubject | undefined;
  readonly etag: string;
  readonly gzipEtag: string;
  // Built on first use: most clusters poll with one encoding, so most responses need one set.
  #identityHeaders: (string | number)[] | undefined;
  #gzipHeaders: (string | number)[] | undefined;
  #notModified: (string | number)[] | undefined;
  #notModifiedGzip: (string | number)[] | undefined;

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

  /** Response headers of a 200: [name, value, name, value, ...]. */
  headers(gzip: boolean): readonly (string | number)[] {
    if (!gzip) {
      this.#identityHeaders ??= [...this.#common(this.etag), 'content-type', 'application/json', 'content-length', this.encoded.length];
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
    ];
    return this.#gzipHeaders;
  }

  /** Response headers of a 304. */
  notModifiedHeaders(gzip: boolean): readonly (string | number)[] {
    if (gzip) return (this.#notModifiedGzip ??= this.#common(this.gzipEtag));
    return (this.#notModified ??= this.#common(this.etag));
  }

  #common(tag: string): (string | number)[] {
    return ['etag', tag, 'x-config-revision', this.revision, 'vary', 'Accept-Encoding', 'cache-control', 'no-cache'];
  }
}

export type PreparedResponse = PreparedBody | OversizedBody;

/** The encoded response served at `revision` (an oversized one has no headers to carry it). */
export function forRevision(encoded: EncodedResponse, revision: string, subject?: ResponseSubject): PreparedResponse {
  return encoded.kind === 'oversized' ? encoded : new PreparedBody(encoded, revision, subject);
}

/**
 * `buf` in an ArrayBuffer of exactly its size. A Buffer is often a view into a larger store:
 * gzipSync's result is the used part of a 16 KiB output chunk carved from the shared
 * allocation pool (about 1 KB used of a cluster's 16 KiB), and Buffer.from results under half
 * the pool size (Buffer.poolSize) are slices of the pool too. A kept view keeps its whole
 * store alive, so a body that may be kept for many revisions is copied into one of its own.
 */
export function ownBuffer(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.buffer.byteLength === buf.length) return buf;
  const own = Buffer.allocUnsafeSlow(buf.length);
  buf.copy(own);
  return own;
}
