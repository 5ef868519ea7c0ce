// A large answer written out in slices is byte for byte what JSON.stringify makes of it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonInSlices } from '../../src/http/rest/json-in-slices.ts';

describe('jsonInSlices', () => {
  it('writes what JSON.stringify writes, the list item by item', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.oneof(fc.jsonValue(), fc.constant(undefined))), fc.string(), async (rest, list, key) => {
        const value = { ...rest, [key]: list, skipped: undefined };
        expect(await jsonInSlices(value, key)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });
});
