// A document turned into ready bytes once: the JSON bytes, their ETag and a gzip copy. It
// depends only on the document, not on the revision that serves it, so it is kept across
// revisions while the document does not change (./encoded-body-cache.ts); the headers, which
// name the revision, are the served response's (./served-response.ts).
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { MAX_RESPONSE_BYTES } from '../domain/projections/index.ts';
import type { PlainBytesBudget, PlainBytesHolder } from './plain-bytes-budget.ts';

/** A document's bytes and tags: a fleet listing's EncodedBody, or a kept answer (./stored-body.ts). */
export interface BodySource {
  readonly kind: 'body';
  readonly etag: string;
  readonly gzipEtag: string;
  /** Length of the plain bytes. */
  readonly length: number;
  readonly body: Buffer;
  gzipped(): Buffer;
  /** Length of the gzip copy. */
  readonly gzipLength: number;
}

/** A document's bytes, independent of the revision that serves them. */
export class EncodedBody implements PlainBytesHolder, BodySource {
  readonly kind = 'body';
  /** Strong validator of the identity body: a hash of its bytes. */
  readonly etag: string;
  /** The same hash marked for the gzip variant (a different representation needs its own tag). */
  readonly gzipEtag: string;
  /** Length of the plain bytes. */
  readonly length: number;
  /** The plain bytes while they are kept (always, without a budget); see PlainBytesBudget. */
  plain: Buffer | undefined;
  plainUsed = false;
  readonly #gzip: Buffer;
  readonly #budget: PlainBytesBudget | undefined;

  /**
   * The gzip copy is made at once and kept. The plain bytes are kept within `budget`
   * when one is given, else for good.
   */
  constructor(body: Buffer, budget?: PlainBytesBudget, made: DocumentBytes = documentBytes(body)) {
    this.etag = plainTag(made.hash);
    this.gzipEtag = gzipTag(made.hash);
    this.length = body.length;
    this.#gzip = ownBuffer(made.gzip);
    this.#budget = budget;
    if (budget === undefined) this.plain = body;
    else budget.admit(this, body);
  }

  /** The plain bytes: kept, or inflated again from the gzip copy. */
  get body(): Buffer {
    const plain = this.plain;
    if (plain !== undefined) {
      this.plainUsed = true;
      return plain;
    }
    const inflated = ownBuffer(gunzipSync(this.#gzip));
    this.#budget!.admit(this, inflated);
    return inflated;
  }

  gzipped(): Buffer {
    return this.#gzip;
  }

  get gzipLength(): number {
    return this.#gzip.length;
  }
}

/** The answer would be cut by the consumer's 900 KiB limit: it is refused, never truncated. */
export interface OversizedBody {
  readonly kind: 'oversized';
  readonly bytes: number;
}

/** What encoding a document gives: its bytes, or the refusal of a document too large. */
export type EncodedDocument = EncodedBody | OversizedBody;

export function encodeInputsDocument(inputs: unknown[], budget?: PlainBytesBudget): EncodedDocument {
  const body = inputsDocument(inputs);
  if (body.length >= MAX_RESPONSE_BYTES) return { kind: 'oversized', bytes: body.length };
  return new EncodedBody(body, budget);
}

/** The `{"inputs": [...]}` document's bytes, in a buffer of their own. */
export function inputsDocument(inputs: unknown[]): Buffer {
  return ownBuffer(Buffer.from(JSON.stringify({ inputs }), 'utf8'));
}

/** What is made from a document's bytes once: the hash its tags name and its gzip copy (maybe a pool's view). */
export interface DocumentBytes {
  readonly hash: string;
  readonly gzip: Buffer;
}

export function documentBytes(body: Buffer): DocumentBytes {
  return {
    hash: createHash('sha256').update(body).digest('base64url').slice(0, 22),
    gzip: gzipSync(body, { level: 6, chunkSize: gzipChunkBytes(body.length) }),
  };
}

/**
 * The size of the buffer zlib writes the gzip copy into: about what the copy will take (a
 * tenth of the plain bytes, for these documents), not zlib's default 16 KiB. The copy is moved
 * out and the buffer dropped, and at 150,000 answers made in a burst (a fleet's first polls
 * after a start) 16 KiB ones pile up between two collections and leave that much more of the C
 * heap behind. The bytes do not depend on it: zlib holds what does not fit and writes it on.
 */
export function gzipChunkBytes(plainBytes: number): number {
  return Math.min(16 * 1024, Math.max(1024, plainBytes >>> 2));
}

/** The strong validator of the identity bytes, as one flat string of its own. */
export function plainTag(hash: string): string {
  return flat(`"${hash}"`);
}

/** The same hash marked for the gzip variant (a different representation needs its own tag). */
export function gzipTag(hash: string): string {
  return flat(`"${hash}-gzip"`);
}

/**
 * `text` as one flat string. V8 keeps a string joined with + or a template as a tree of its
 * parts, and a slice as a view of the whole string it was cut from (here the digest's 43
 * characters): a tag kept with its body for many revisions would hold about 150 bytes of
 * them rather than its own 40.
 */
function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
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
