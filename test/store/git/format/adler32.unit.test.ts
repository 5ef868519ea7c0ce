// Adler-32 (RFC 1950) over parts, and the two ways the checksum of a large tree is worked out
// without reading all of it: bytes swapped for as many others, and two contents joined. Each
// is checked against the checksum computed over the whole.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adler32, adler32Joined, adler32Replaced } from '../../../../src/store/git/format/adler32.ts';

it('knows Adler-32 of a known text (RFC 1950: "Wikipedia" is 0x11E60398)', () => {
  expect(adler32([Buffer.from('Wikipedia')])).toBe(0x11e60398);
  expect(adler32([])).toBe(1);
});

it('is the same over parts as over their join', () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 20_000 }), { maxLength: 4 }), (arrays) => {
      const parts = arrays.map((a) => Buffer.from(a));
      expect(adler32(parts)).toBe(adler32([Buffer.concat(parts)]));
    }),
    { numRuns: 50 },
  );
});

describe('adler32Replaced', () => {
  it('equals the checksum of the content with the bytes swapped', () => {
    const swap = fc
      .uint8Array({ minLength: 1, maxLength: 70_000 })
      .chain((content) =>
        fc.record({
          content: fc.constant(content),
          offset: fc.nat({ max: content.length - 1 }),
          inserted: fc.uint8Array({ maxLength: content.length }),
        }),
      )
      .map(({ content, offset, inserted }) => ({
        content: Buffer.from(content),
        offset,
        inserted: Buffer.from(inserted.subarray(0, content.length - offset)),
      }));
    fc.assert(
      fc.property(swap, ({ content, offset, inserted }) => {
        const removed = Buffer.from(content.subarray(offset, offset + inserted.length));
        const after = Buffer.from(content);
        inserted.copy(after, offset);
        const replaced = adler32Replaced(adler32([content]), content.length, offset, removed, inserted);
        expect(replaced).toBe(adler32([after]));
      }),
      { numRuns: 200 },
    );
  });

  it('holds for the largest changes: every byte 0 to 255 and back, over more than the sums wrap', () => {
    const zeros = Buffer.alloc(200_000);
    const full = Buffer.alloc(200_000, 0xff);
    expect(adler32Replaced(adler32([zeros]), zeros.length, 0, zeros, full)).toBe(adler32([full]));
    expect(adler32Replaced(adler32([full]), full.length, 0, full, zeros)).toBe(adler32([zeros]));
  });

  it('refuses a swap of unequal lengths or outside the content', () => {
    expect(() => adler32Replaced(1, 10, 0, Buffer.alloc(2), Buffer.alloc(3))).toThrow(RangeError);
    expect(() => adler32Replaced(1, 10, 9, Buffer.alloc(2), Buffer.alloc(2))).toThrow(RangeError);
  });
});

describe('adler32Joined', () => {
  it('equals the checksum of the two contents one after the other', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), fc.uint8Array({ maxLength: 70_000 }), (a, b) => {
        const first = Buffer.from(a);
        const second = Buffer.from(b);
        const joined = adler32Joined(adler32([first]), adler32([second]), second.length);
        expect(joined).toBe(adler32([first, second]));
      }),
      { numRuns: 100 },
    );
  });

  it('holds past the modulus: a second content of 65,521 bytes and more', () => {
    for (const length of [65_520, 65_521, 65_522, 200_000]) {
      const first = Buffer.from('tree 200000\0');
      const second = Buffer.alloc(length, 0xfe);
      expect(adler32Joined(adler32([first]), adler32([second]), length)).toBe(adler32([first, second]));
    }
  });
});
