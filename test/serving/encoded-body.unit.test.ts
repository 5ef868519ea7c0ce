// The gzip copy of an answer is written into a buffer of about its size rather than zlib's
// default 16 KiB (src/serving/encoded-body.ts gzipChunkBytes): the bytes must be the same as
// with the default, or every kept ETag and gzip body would change.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentBytes, gzipChunkBytes } from '../../src/serving/encoded-body.ts';

describe("an answer's gzip copy", () => {
  it("is zlib's default output byte for byte, for documents of any size", () => {
    const document = fc
      .tuple(fc.array(fc.string({ maxLength: 40 }), { maxLength: 200 }), fc.nat({ max: 300_000 }))
      .map(([parts, filler]) => Buffer.from(JSON.stringify({ inputs: parts, filler: 'x'.repeat(filler) })));
    fc.assert(
      fc.property(document, (body) => {
        expect(documentBytes(body).gzip.equals(gzipSync(body, { level: 6 }))).toBe(true);
      }),
      { numRuns: 60, seed: Number(process.env.FUZZ_SEED ?? 20_261_128) },
    );
  });

  it('is written into a buffer of about a quarter of the plain bytes, from 1 to 16 KiB', () => {
    expect(gzipChunkBytes(100)).toBe(1024);
    expect(gzipChunkBytes(20_000)).toBe(5000);
    expect(gzipChunkBytes(900_000)).toBe(16 * 1024);
  });
});
