// A large answer written out in slices is byte for byte the UTF-8 of what JSON.stringify makes
// of it (characters outside ASCII and lone surrogates included: fc.string's full unicode).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonInSlices } from '../../src/http/rest/json-in-slices.ts';

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
});
