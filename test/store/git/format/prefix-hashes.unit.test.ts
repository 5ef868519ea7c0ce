// The SHA-1 of a large tree or index, resumed from the hash states of the version before it:
// the id is the SHA-1 of the whole content however it is cut into parts and wherever it
// resumes, and the bytes before the resume point are not read again.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { HASH_STEP, prefixHashed } from '../../../../src/store/git/format/prefix-hashes.ts';

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** Content of `length` bytes made from `seed`: large arrays without drawing every byte. */
function content(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** `bytes` cut into parts at the given places. */
const cut = (bytes: Buffer, at: number[]) => {
  const places = [...new Set(at.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...places].map((start, i) => bytes.subarray(start, places[i] ?? bytes.length));
};

it('is the SHA-1 of the parts joined, with a state kept every step', () => {
  fc.assert(
    fc.property(fc.nat({ max: 3 * HASH_STEP + 10 }), fc.integer(), fc.array(fc.nat(), { maxLength: 5 }), (n, s, at) => {
      const bytes = content(n, s);
      const { id, hashes } = prefixHashed(cut(bytes, at));
      expect(id).toBe(sha1(bytes));
      expect(hashes.states).toHaveLength(Math.floor(n / HASH_STEP));
    }),
    { numRuns: 25 },
  );
});

it('resumed from an earlier version equal up to some byte, is the SHA-1 of the new one', () => {
  fc.assert(
    fc.property(
      fc.nat({ max: 3 * HASH_STEP }),
      fc.nat({ max: 3 * HASH_STEP }),
      fc.integer(),
      fc.array(fc.nat(), { maxLength: 4 }),
      (length, change, seed, at) => {
        const before = content(length, seed);
        const same = Math.min(change, length);
        // Equal in the first `same` bytes, then anything, of any length.
        const after = Buffer.concat([before.subarray(0, same), content(change % 5000, seed + 1)]);
        const { hashes } = prefixHashed([before]);
        const resumed = prefixHashed(cut(after, at), { previous: hashes, same });
        expect(resumed.id).toBe(sha1(after));
        expect(resumed.hashes.states).toHaveLength(Math.floor(after.length / HASH_STEP));
        // The states before the resume point are the earlier version's own.
        const kept = Math.floor(same / HASH_STEP);
        for (let i = 0; i < kept; i++) expect(resumed.hashes.states[i]).toBe(hashes.states[i]);
      },
    ),
    { numRuns: 25 },
  );
});

it('reads nothing before the resume point again: bytes there are taken as they were', () => {
  const before = content(3 * HASH_STEP + 100, 7);
  const { hashes } = prefixHashed([before]);
  const after = Buffer.from(before);
  after[5] ^= 0xff; // within the first step, which it does not read again
  after[2 * HASH_STEP + 50] ^= 0xff;
  const resumed = prefixHashed([after], { previous: hashes, same: 2 * HASH_STEP + 50 });
  const expected = Buffer.from(before);
  expected[2 * HASH_STEP + 50] ^= 0xff;
  expect(resumed.id).toBe(sha1(expected));
  // Asked again from the states it kept, it says the same.
  expect(prefixHashed([after], { previous: resumed.hashes, same: after.length }).id).toBe(resumed.id);
});
