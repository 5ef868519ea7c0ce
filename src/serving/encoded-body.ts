// A document turned into ready bytes once: the JSON bytes, their ETag and a gzip copy. It
// depends only on the document, not on the revision that serves it, so it is kept across
// revisions while the document does not change (./encoded-body-cache.ts); the headers, which
// name the revision, are the served response's (./served-response.ts).
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { MAX_RESPONSE_BYTES } from '../domain/projections/index.ts';
import type { PlainBytesBudget, PlainBytesHolder } from './plain-bytes-budget.ts';

/** A document's bytes, independent of the revision that serves them. */
export class EncodedBody implements PlainBytesHolder {
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
  constructor(body: Buffer, budget?: PlainBytesBudget) {
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    this.etag = flat(`"${hash}"`);
    this.gzipEtag = flat(`"${hash}-gzip"`);
    this.length = body.length;
    this.#gzip = ownBuffer(gzipSync(body, { level: 6 }));
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
}

/** The answer would be cut by the consumer's 900 KiB limit: it is refused, never truncated. */
export interface OversizedBody {
  readonly kind: 'oversized';
  readonly bytes: number;
}

/** What encoding a document gives: its bytes, or the refusal of a document too large. */
export type EncodedDocument = EncodedBody | OversizedBody;

export function encodeInputsDocument(inputs: unknown[], budget?: PlainBytesBudget): EncodedDocument {
  const body = Buffer.from(JSON.stringify({ inputs }), 'utf8');
  if (body.length >= MAX_RESPONSE_BYTES) return { kind: 'oversized', bytes: body.length };
  return new EncodedBody(ownBuffer(body), budget);
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
