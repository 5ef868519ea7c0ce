// Adler-32 (RFC 1950), the checksum that ends a zlib stream. A large tree object is written as
// a stream of stored blocks (./stored-zlib.ts), so its checksum is the one pass over its bytes
// that stays; a write to a record swaps one entry for one of the same length, and the sum of
// the new tree follows from the old one and the bytes that changed, without reading the rest.
//
// Of content D of n bytes: A = 1 + Σ D[i] and B = n + Σ (n - i)·D[i] (i from 0), both mod 65521;
// the checksum is B·65536 + A.

const ADLER_MOD = 65521;
/** How many bytes the sums take before they must be reduced (zlib's NMAX). */
const ADLER_RUN = 5552;

/** The Adler-32 checksum of `parts`, in order, as if they were one buffer. */
export function adler32(parts: readonly Uint8Array[]): number {
  let a = 1;
  let b = 0;
  for (const part of parts) {
    for (let start = 0; start < part.length; start += ADLER_RUN) {
      const end = Math.min(part.length, start + ADLER_RUN);
      for (let i = start; i < end; i++) {
        a += part[i];
        b += a;
      }
      a %= ADLER_MOD;
      b %= ADLER_MOD;
    }
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * The checksum of content of `length` bytes whose checksum was `before`, once the bytes at
 * `offset` were `removed` and are now `inserted`, of the same length: work for the bytes
 * that changed only.
 */
export function adler32Replaced(
  before: number,
  length: number,
  offset: number,
  removed: Uint8Array,
  inserted: Uint8Array,
): number {
  if (removed.length !== inserted.length) throw new RangeError('adler32Replaced swaps bytes for as many bytes');
  if (offset < 0 || offset + removed.length > length)
    throw new RangeError('the bytes replaced lie outside the content');
  let a = before & 0xffff;
  let b = before >>> 16;
  let weight = (length - offset) % ADLER_MOD;
  for (let i = 0; i < removed.length; i++) {
    const change = inserted[i] - removed[i];
    a += change;
    b += change * weight;
    weight = weight === 0 ? ADLER_MOD - 1 : weight - 1;
    // A byte adds under 2^24 to B: reduced now and then, the sum stays an exact integer.
    if ((i & 0xfffff) === 0xfffff) b %= ADLER_MOD;
  }
  a = ((a % ADLER_MOD) + ADLER_MOD) % ADLER_MOD;
  b = ((b % ADLER_MOD) + ADLER_MOD) % ADLER_MOD;
  return ((b << 16) | a) >>> 0;
}

/** The checksum of `first` followed by `second`, of `secondLength` bytes, from their two checksums (zlib's combine). */
export function adler32Joined(first: number, second: number, secondLength: number): number {
  const rest = secondLength % ADLER_MOD;
  const a1 = first & 0xffff;
  const b1 = first >>> 16;
  const a2 = second & 0xffff;
  const b2 = second >>> 16;
  // A of the join: a1 + a2 - 1 (both count the 1 they start from); B: b1 + b2 + rest·(a1 - 1).
  const a = (a1 + a2 + ADLER_MOD - 1) % ADLER_MOD;
  const b = (b1 + b2 + ((rest * a1) % ADLER_MOD) + ADLER_MOD - rest) % ADLER_MOD;
  return ((b << 16) | a) >>> 0;
}
