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

  it('are written out for each poll: a body keeps no header array between polls', () => {
    const first = body.headers(true, PLAIN);
    const again = body.headers(true, PLAIN);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    const overTls = body.headers(true, OVER_TLS);
    expect(overTls.slice(-4)).toEqual(OVER_TLS);
    expect(body.notModifiedHeaders(false, OVER_TLS).slice(-4)).toEqual(OVER_TLS);
    expect(body.headers(false)).not.toContain('x-content-type-options');
  });
});
