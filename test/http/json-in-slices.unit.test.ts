// A large answer written out in slices is byte for byte the UTF-8 of what JSON.stringify makes
// of it (characters outside ASCII and lone surrogates included: fc.string's full unicode).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonInSlices, TextBytes } from '../../src/http/rest/json-in-slices.ts';

describe('jsonInSlices', () => {
  it('writes what JSON.stringify writes, the list item by item', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()),
        fc.array(fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.constant(undefined))),
        fc.string(),
        async (rest, list, key) => {
          const value = { ...rest, [key]: list, skipped: undefined };
          expect((await jsonInSlices(value, key)).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('TextBytes: the UTF-8 of the pieces, as text or bytes, across the buffer growing', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc
        .tuple(fc.constantFrom('a', 'é', '€', '😀', '\ud800'), fc.integer({ min: 0, max: 50_000 }))
        .map(([c, n]) => c.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, fc.boolean()), { maxLength: 30 }), (written) => {
        const out = new TextBytes();
        // Each piece as text, or as its bytes written before.
        for (const [p, asBytes] of written)
          if (asBytes) out.addBytes(Buffer.from(p, 'utf8'));
          else out.add(p);
        const pieces = written.map(([p]) => p);
        expect(out.bytes().equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
