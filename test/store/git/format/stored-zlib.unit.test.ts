// Large Git objects are written as zlib streams of stored blocks made of views of their bytes:
// what zlib inflates from them is the content, whatever its length and however it is cut.
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adler32 } from '../../../../src/store/git/format/adler32.ts';
import { storedZlib } from '../../../../src/store/git/format/stored-zlib.ts';

describe('storedZlib', () => {
  it.each([0, 1, 65_534, 65_535, 65_536, 131_071, 200_000])('inflates to %d bytes of content', (size) => {
    const content = Buffer.alloc(size);
    for (let i = 0; i < size; i++) content[i] = (i * 7919) & 0xff;
    const header = Buffer.from(`tree ${size}\0`);
    const stream = Buffer.concat(storedZlib([header, content]));
    expect(inflateSync(stream).equals(Buffer.concat([header, content]))).toBe(true);
  });

  it('inflates to its parts joined, however the content is cut into parts', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 70_000 }), { maxLength: 4 }), (arrays) => {
        const parts = arrays.map((a) => Buffer.from(a));
        expect(inflateSync(Buffer.concat(storedZlib(parts))).equals(Buffer.concat(parts))).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('copies none of the content: its pieces are views of the parts', () => {
    const content = Buffer.alloc(100_000, 1);
    const pieces = storedZlib([content]);
    expect(pieces.filter((p) => p.buffer === content.buffer).reduce((n, p) => n + p.length, 0)).toBe(100_000);
  });
});

describe("the stream's trailer", () => {
  it('is the Adler-32 of the parts joined, the one inflate checks the stream against', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 20_000 }), { maxLength: 4 }), (arrays) => {
        const parts = arrays.map((a) => Buffer.from(a));
        const joined = Buffer.concat(parts);
        const stream = Buffer.concat(storedZlib(parts));
        expect(stream.readUInt32BE(stream.length - 4)).toBe(adler32([joined]));
        expect(inflateSync(stream).equals(joined)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('is the checksum the caller gives, without reading the parts', () => {
    const content = Buffer.alloc(70_000, 7);
    const known = adler32([content]);
    const stream = Buffer.concat(storedZlib([content], known));
    expect(inflateSync(stream).equals(content)).toBe(true);
    // A wrong checksum is written as given: inflate refuses the stream, so nothing recomputed it.
    expect(() => inflateSync(Buffer.concat(storedZlib([content], (known ^ 1) >>> 0)))).toThrow(/incorrect data check/);
  });
});
