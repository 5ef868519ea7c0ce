// The one If-None-Match matcher (src/http/etag-match.ts), used by the read path's prepared
// answers, a REST record's GET and the web UI's files alike.
import { describe, expect, it } from 'vitest';
import { recordEtag } from '../../src/domain/writes/record-etag.ts';
import { etagMatches, gzipEtag } from '../../src/http/etag-match.ts';
import { EncodedBody } from '../../src/serving/encoded-body.ts';

const TAG = '"abc_-123"';

describe('etagMatches', () => {
  it('matches the tag as it was sent, and * for any', () => {
    expect(etagMatches(TAG, TAG)).toBe(true);
    expect(etagMatches('*', TAG)).toBe(true);
    expect(etagMatches(' * ', TAG)).toBe(true);
  });

  it('matches nothing without a header', () => {
    expect(etagMatches(undefined, TAG)).toBe(false);
    expect(etagMatches('', TAG)).toBe(false);
  });

  it('compares weakly: W/ is ignored, as If-None-Match does', () => {
    expect(etagMatches(`W/${TAG}`, TAG)).toBe(true);
  });

  it('finds the tag in a list, whatever its spaces', () => {
    expect(etagMatches(`"other", ${TAG}`, TAG)).toBe(true);
    expect(etagMatches(`"other",W/${TAG} ,"third"`, TAG)).toBe(true);
    expect(etagMatches('"other", "third"', TAG)).toBe(false);
  });

  it("takes the gzip copy's tag for the plain one's, and the reverse", () => {
    expect(etagMatches(gzipEtag(TAG), TAG)).toBe(true);
    expect(etagMatches(`W/${gzipEtag(TAG)}`, TAG)).toBe(true);
    expect(etagMatches(`"x", ${gzipEtag(TAG)}`, TAG)).toBe(true);
    expect(etagMatches(gzipEtag(gzipEtag(TAG)), TAG)).toBe(false);
  });

  it('takes a tag without its quotes', () => {
    expect(etagMatches('abc_-123', TAG)).toBe(true);
  });

  it('matches no other tag: a prefix, a longer tag, another hash', () => {
    expect(etagMatches('"abc_-12"', TAG)).toBe(false);
    expect(etagMatches('"abc_-1234"', TAG)).toBe(false);
    expect(etagMatches('"ABC_-123"', TAG)).toBe(false);
    expect(etagMatches('"abc_-123-br"', TAG)).toBe(false);
  });

  it("serves the read path's bodies: their gzip tag is the one it knows", () => {
    const body = new EncodedBody(Buffer.from('{"inputs":[]}'));
    expect(body.gzipEtag).toBe(gzipEtag(body.etag));
    expect(etagMatches(body.etag, body.etag)).toBe(true);
    expect(etagMatches(body.gzipEtag, body.etag)).toBe(true);
    expect(etagMatches(new EncodedBody(Buffer.from('{"inputs":[{}]}')).etag, body.etag)).toBe(false);
  });

  it('serves a REST record: its tag, and none of another version', () => {
    const record = { id: 'team-a', labels: {}, annotations: {} } as never;
    const etag = recordEtag(record);
    expect(etagMatches(etag, etag)).toBe(true);
    expect(etagMatches(`W/${etag}`, etag)).toBe(true);
    expect(etagMatches(recordEtag({ id: 'team-a', labels: { x: 'y' }, annotations: {} }), etag)).toBe(false);
  });
});
