// A read response turned into ready bytes once, so that every later poll is a lookup:
// the JSON body, its ETag, and a gzip copy made the first time a client asks for gzip.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { MAX_RESPONSE_BYTES } from '../domain/projections/index.ts';

export interface PreparedBody {
  readonly kind: 'body';
  readonly body: Buffer;
  /** Strong validator of the identity body: a hash of its bytes. */
  readonly etag: string;
  /** The same hash marked for the gzip variant (a different representation needs its own tag). */
  readonly gzipEtag: string;
  gzipped(): Buffer;
  /** Response headers of a 200, built once: [name, value, name, value, ...]. */
  headers(gzip: boolean): readonly (string | number)[];
  /** Response headers of a 304. */
  notModifiedHeaders(gzip: boolean): readonly (string | number)[];
}

/** The answer would be cut by the consumer's 900 KiB limit: it is refused, never truncated. */
export interface OversizedBody {
  readonly kind: 'oversized';
  readonly bytes: number;
}

export type PreparedResponse = PreparedBody | OversizedBody;

/** `revision` is the snapshot's, sent as X-Config-Revision. */
export function prepareInputsDocument(inputs: unknown[], revision: string): PreparedResponse {
  const body = Buffer.from(JSON.stringify({ inputs }), 'utf8');
  if (body.length >= MAX_RESPONSE_BYTES) return { kind: 'oversized', bytes: body.length };
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const etag = `"${hash}"`;
  const gzipEtag = `"${hash}-gzip"`;
  const common = (tag: string) => ['etag', tag, 'x-config-revision', revision, 'vary', 'Accept-Encoding', 'cache-control', 'no-cache'];
  let gzip: Buffer | undefined;
  let gzipHeaders: (string | number)[] | undefined;
  const identityHeaders = [...common(etag), 'content-type', 'application/json', 'content-length', body.length];
  const notModified = [common(etag), common(gzipEtag)] as const;
  const prepared: PreparedBody = {
    kind: 'body',
    body,
    etag,
    gzipEtag,
    gzipped() {
      gzip ??= gzipSync(body, { level: 6 });
      return gzip;
    },
    headers(useGzip) {
      if (!useGzip) return identityHeaders;
      gzipHeaders ??= [...common(gzipEtag), 'content-type', 'application/json', 'content-length', prepared.gzipped().length, 'content-encoding', 'gzip'];
      return gzipHeaders;
    },
    notModifiedHeaders(useGzip) {
      return notModified[useGzip ? 1 : 0];
    },
  };
  return prepared;
}
