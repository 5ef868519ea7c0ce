// A read response turned into ready bytes once, so that every later poll is a lookup:
// the JSON body, its ETag, and a gzip copy made the first time a client asks for gzip.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { MAX_RESPONSE_BYTES } from '../domain/read-endpoints.ts';

export interface PreparedBody {
  readonly kind: 'body';
  readonly body: Buffer;
  /** Strong validator of the identity body: a hash of its bytes. */
  readonly etag: string;
  /** The same hash marked for the gzip variant (a different representation needs its own tag). */
  readonly gzipEtag: string;
  gzipped(): Buffer;
}

/** The answer would be cut by the consumer's 900 KiB limit: it is refused, never truncated. */
export interface OversizedBody {
  readonly kind: 'oversized';
  readonly bytes: number;
}

export type PreparedResponse = PreparedBody | OversizedBody;

export function prepareInputsDocument(inputs: unknown[]): PreparedResponse {
  const body = Buffer.from(JSON.stringify({ inputs }), 'utf8');
  if (body.length >= MAX_RESPONSE_BYTES) return { kind: 'oversized', bytes: body.length };
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  let gzip: Buffer | undefined;
  return {
    kind: 'body',
    body,
    etag: `"${hash}"`,
    gzipEtag: `"${hash}-gzip"`,
    gzipped() {
      gzip ??= gzipSync(body, { level: 6 });
      return gzip;
    },
  };
}
