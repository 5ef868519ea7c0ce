// The slabs that hold the kept answers' bytes (src/serving/byte-slabs.ts): what is written reads
// back, freed space is taken back by compaction and slabs let go, a view handed out keeps the
// bytes it showed, and what is reserved stays within twice what is live plus one slab.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSlabs } from '../../src/serving/byte-slabs.ts';

const SLAB = 1024;

/** Allocates `length` bytes and fills them with `fill`. */
function put(slabs: ByteSlabs, length: number, fill: number): number {
  const handle = slabs.allocate(length);
  slabs.bytes(handle).fill(fill);
  return handle;
}

describe('ByteSlabs', () => {
  it('reads back what was written, through a view and through its slab and offset', () => {
    const slabs = new ByteSlabs(SLAB);
    const a = put(slabs, 10, 1);
    const b = put(slabs, 20, 2);
    expect(slabs.bytes(a)).toEqual(Buffer.alloc(10, 1));
    expect(slabs.bytes(b)).toEqual(Buffer.alloc(20, 2));
    expect(slabs.slabOf(b).subarray(slabs.offsetOf(b), slabs.offsetOf(b) + slabs.lengthOf(b))).toEqual(
      Buffer.alloc(20, 2),
    );
    // Small allocations share one slab.
    expect(slabs.slabOf(a)).toBe(slabs.slabOf(b));
    expect(slabs.liveBytes).toBe(30);
    expect(slabs.reservedBytes).toBe(SLAB);
  });

  it('gives an allocation over a quarter of a slab a buffer of its own size, let go when freed', () => {
    const slabs = new ByteSlabs(SLAB);
    put(slabs, 8, 1);
    const big = put(slabs, 5000, 7);
    expect(slabs.slabOf(big).length).toBe(5000);
    expect(slabs.reservedBytes).toBe(SLAB + 5000);
    slabs.free(big);
    expect(slabs.reservedBytes).toBe(SLAB);
    expect(slabs.slabCount).toBe(1);
  });

  it('opens another slab when one is full, and lets a slab go once all it held was freed', () => {
    const slabs = new ByteSlabs(SLAB);
    const first = Array.from({ length: 4 }, (_, i) => put(slabs, 200, i));
    const next = put(slabs, 250, 9);
    expect(slabs.slabCount).toBe(2);
    expect(slabs.slabOf(next)).not.toBe(slabs.slabOf(first[0]));
    for (const handle of first) slabs.free(handle);
    expect(slabs.slabCount).toBe(1);
    expect(slabs.reservedBytes).toBe(SLAB);
    expect(slabs.bytes(next)).toEqual(Buffer.alloc(250, 9));
  });

  it('moves what is left of a slab under half live into the slab being filled, keeping handles and bytes', () => {
    const slabs = new ByteSlabs(SLAB);
    const first = Array.from({ length: 4 }, (_, i) => put(slabs, 250, i + 1));
    put(slabs, 100, 9); // opens the second slab
    const kept = first[3];
    const before = slabs.slabOf(kept);
    const view = slabs.bytes(kept);
    for (const handle of first.slice(0, 3)) slabs.free(handle);
    expect(slabs.slabOf(kept)).not.toBe(before);
    expect(slabs.bytes(kept)).toEqual(Buffer.alloc(250, 4));
    expect(slabs.slabCount).toBe(1);
    // A view handed out before the move still shows its bytes: the old slab was never written over.
    expect(view).toEqual(Buffer.alloc(250, 4));
  });

  it('gives freed handles out again, and refuses to free one twice', () => {
    const slabs = new ByteSlabs(SLAB);
    const a = put(slabs, 10, 1);
    slabs.free(a);
    expect(() => slabs.free(a)).toThrow(/not allocated/);
    expect(put(slabs, 12, 3)).toBe(a);
    expect(slabs.bytes(a)).toEqual(Buffer.alloc(12, 3));
  });

  it('never writes over bytes freed in the slab being filled', () => {
    const slabs = new ByteSlabs(SLAB);
    const a = put(slabs, 100, 1);
    const view = slabs.bytes(a);
    slabs.free(a);
    put(slabs, 100, 2);
    expect(view).toEqual(Buffer.alloc(100, 1));
  });

  it('holds every live allocation byte for byte under any sequence of allocations and frees', () => {
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('allocate' as const), length: fc.nat({ max: 300 }) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('free' as const), pick: fc.nat() }) },
      // Frees all but every `keep`th allocation, as a reload that changes most answers would.
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('thin' as const), keep: fc.integer({ min: 2, max: 8 }) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const slabs = new ByteSlabs(SLAB);
        const live = new Map<number, number>(); // handle -> fill byte
        let fill = 0;
        for (const step of ops) {
          if (step.kind === 'allocate') {
            fill = (fill + 1) % 256;
            const handle = put(slabs, step.length, fill);
            expect(live.has(handle)).toBe(false);
            live.set(handle, fill);
          } else if (step.kind === 'free' && live.size > 0) {
            const handle = [...live.keys()][step.pick % live.size];
            slabs.free(handle);
            live.delete(handle);
          } else if (step.kind === 'thin') {
            [...live.keys()].forEach((handle, i) => {
              if (i % step.keep === 0) return;
              slabs.free(handle);
              live.delete(handle);
            });
          }
          let bytes = 0;
          for (const [handle, value] of live) {
            const got = slabs.bytes(handle);
            bytes += got.length;
            expect(got.every((b) => b === value)).toBe(true);
          }
          expect(slabs.liveBytes).toBe(bytes);
          // Every slab but the one being filled is at least half live (large ones wholly).
          expect(slabs.reservedBytes).toBeLessThanOrEqual(2 * bytes + SLAB);
        }
        for (const handle of live.keys()) slabs.free(handle);
        expect(slabs.liveBytes).toBe(0);
        expect(slabs.reservedBytes).toBeLessThanOrEqual(SLAB);
      }),
      { numRuns: 200, seed: Number(process.env.FUZZ_SEED ?? 20_261_128) },
    );
  });
});
