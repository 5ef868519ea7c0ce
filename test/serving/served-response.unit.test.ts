import { describe, expect, it } from 'vitest';
import { EncodedBody } from '../../src/serving/encoded-body.ts';
import { ServedBody } from '../../src/serving/served-response.ts';

const PLAIN = Object.freeze(['x-content-type-options', 'nosniff']);
const OVER_TLS = Object.freeze([...PLAIN, 'strict-transport-security', 'max-age=31536000']);

describe("a served body's headers", () => {
  const body = new ServedBody(new EncodedBody(Buffer.from('{"inputs":[]}')), 'rev-1', {
    clusterId: 'c1',
    endpoint: 'namespaces',
  });

  it("end with the connection's headers, after the answer's own, in the order sent", () => {
    expect(body.headers(false, PLAIN)).toEqual([
      ...['etag', body.etag, 'x-config-revision', 'rev-1', 'vary', 'Accept-Encoding', 'cache-control', 'no-cache'],
      ...['content-type', 'application/json', 'content-length', 13],
      ...PLAIN,
    ]);
    expect(body.headers(true, PLAIN)).toEqual([
      ...['etag', body.gzipEtag, 'x-config-revision', 'rev-1', 'vary', 'Accept-Encoding', 'cache-control', 'no-cache'],
      ...['content-type', 'application/json', 'content-length', body.gzipped().length, 'content-encoding', 'gzip'],
      ...PLAIN,
    ]);
    expect(body.notModifiedHeaders(true, PLAIN)).toEqual([
      ...['etag', body.gzipEtag, 'x-config-revision', 'rev-1', 'vary', 'Accept-Encoding', 'cache-control', 'no-cache'],
      ...PLAIN,
    ]);
  });

  it('are one array per variant, handed to every poll, and made anew for other connection headers', () => {
    const first = body.headers(true, PLAIN);
    expect(body.headers(true, PLAIN)).toBe(first);
    expect(body.notModifiedHeaders(false, PLAIN)).toBe(body.notModifiedHeaders(false, PLAIN));
    const overTls = body.headers(true, OVER_TLS);
    expect(overTls).not.toBe(first);
    expect(overTls.slice(-4)).toEqual(OVER_TLS);
    expect(body.notModifiedHeaders(false, OVER_TLS).slice(-4)).toEqual(OVER_TLS);
    expect(body.headers(true, PLAIN)).toEqual(first);
    expect(body.headers(false)).not.toContain('x-content-type-options');
  });
});
