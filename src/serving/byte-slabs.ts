// Many small byte strings kept in a few large buffers ("slabs") rather than one buffer each. A
// buffer of its own costs about 300 bytes besides its bytes (the Buffer and ArrayBuffer objects,
// the backing store's record and the allocator's header), as much as a small answer's gzip copy;
// 150,000 of them also give the collector 150,000 backing stores to track.
//
// The slabs are written only at their end, never over freed space: a view handed to a socket may
// still be sent after its space was freed, and must keep the bytes it had. Freed space is taken
// back by compaction: once a slab that is no longer written to holds less than half its size in
// live bytes, those are copied to the slab being filled and the old slab is let go (the collector
// frees it when the last view of it is gone). So every slab but the one being filled is at least
// half live, and what is reserved stays under twice what is live plus one slab.

/** Bytes of a slab; a byte string over a quarter of it gets a buffer of its own size. */
export const SLAB_BYTES = 256 * 1024;

const NO_SLAB = -1;

export class ByteSlabs {
  readonly slabBytes: number;
  /** By slab index: its buffer (undefined once let go), bytes written, bytes still live, allocations in it. */
  readonly #slabs: (Buffer | undefined)[] = [];
  readonly #written: number[] = [];
  readonly #live: number[] = [];
  readonly #held: number[] = [];
  readonly #freeSlabs: number[] = [];
  /** The slab being filled. */
  #current = NO_SLAB;
  /** By handle: slab (NO_SLAB for a free handle), offset and length. */
  #slabOf = new Int32Array(64).fill(NO_SLAB);
  #offsetOf = new Int32Array(64);
  #lengthOf = new Int32Array(64);
  readonly #freeHandles: number[] = [];
  #handles = 0;
  #liveBytes = 0;
  #reservedBytes = 0;
  /** Slabs sealed with less than half their size live, compacted before a public call returns. */
  readonly #pending: number[] = [];

  constructor(slabBytes = SLAB_BYTES) {
    this.slabBytes = slabBytes;
  }

  /** Space for `length` bytes (contents unset: write them through bytes()); returns its handle. */
  allocate(length: number): number {
    const handle = this.#freeHandles.pop() ?? this.#newHandle();
    this.#place(handle, length);
    this.#liveBytes += length;
    this.#drain();
    return handle;
  }

  /** Lets the handle's space go; the handle may be given out again. */
  free(handle: number): void {
    const slab = this.#slabOf[handle];
    if (slab === NO_SLAB) throw new Error(`byte slab handle ${handle} is not allocated`);
    const length = this.#lengthOf[handle];
    this.#slabOf[handle] = NO_SLAB;
    this.#freeHandles.push(handle);
    this.#liveBytes -= length;
    this.#live[slab] -= length;
    this.#held[slab]--;
    if (slab !== this.#current) this.#review(slab);
    this.#drain();
  }

  /** A view of the handle's bytes (valid until the handle is freed or moved; the bytes it shows never change). */
  bytes(handle: number): Buffer {
    const slab = this.#slabs[this.#slabOf[handle]];
    if (slab === undefined) throw new Error(`byte slab handle ${handle} is not allocated`);
    const offset = this.#offsetOf[handle];
    return slab.subarray(offset, offset + this.#lengthOf[handle]);
  }

  /** The buffer holding the handle's bytes and where they start in it: a read without making a view. */
  slabOf(handle: number): Buffer {
    return this.#slabs[this.#slabOf[handle]]!;
  }

  offsetOf(handle: number): number {
    return this.#offsetOf[handle];
  }

  lengthOf(handle: number): number {
    return this.#lengthOf[handle];
  }

  /** Bytes of the allocations held. */
  get liveBytes(): number {
    return this.#liveBytes;
  }

  /** Bytes of the slabs held. */
  get reservedBytes(): number {
    return this.#reservedBytes;
  }

  /** Slabs held. */
  get slabCount(): number {
    return this.#slabs.length - this.#freeSlabs.length;
  }

  #newHandle(): number {
    if (this.#handles === this.#slabOf.length) {
      const size = this.#handles * 2;
      this.#slabOf = grown(this.#slabOf, size, NO_SLAB);
      this.#offsetOf = grown(this.#offsetOf, size, 0);
      this.#lengthOf = grown(this.#lengthOf, size, 0);
    }
    return this.#handles++;
  }

  /** Gives the handle `length` bytes at the end of the slab being filled (or a slab of its own). */
  #place(handle: number, length: number): number {
    let slab: number;
    if (length > this.slabBytes / 4) slab = this.#open(length);
    else {
      if (this.#current === NO_SLAB || this.#written[this.#current] + length > this.slabBytes) {
        const sealed = this.#current;
        this.#current = this.#open(this.slabBytes);
        if (sealed !== NO_SLAB) this.#review(sealed);
      }
      slab = this.#current;
    }
    this.#slabOf[handle] = slab;
    this.#offsetOf[handle] = this.#written[slab];
    this.#lengthOf[handle] = length;
    this.#written[slab] += length;
    this.#live[slab] += length;
    this.#held[slab]++;
    return slab;
  }

  #open(size: number): number {
    const slab = this.#freeSlabs.pop() ?? this.#slabs.length;
    this.#slabs[slab] = Buffer.allocUnsafeSlow(size);
    this.#written[slab] = 0;
    this.#live[slab] = 0;
    this.#held[slab] = 0;
    this.#reservedBytes += size;
    return slab;
  }

  /** A slab no longer written to: let go when empty, compacted when under half live. */
  #review(slab: number): void {
    if (this.#held[slab] === 0) this.#letGo(slab);
    else if (this.#live[slab] < this.#slabs[slab]!.length / 2 && !this.#pending.includes(slab))
      this.#pending.push(slab);
  }

  #drain(): void {
    for (let slab = this.#pending.pop(); slab !== undefined; slab = this.#pending.pop()) {
      if (this.#slabs[slab] !== undefined && slab !== this.#current) this.#compact(slab);
    }
  }

  /** Copies the slab's live allocations to the slab being filled and lets it go. */
  #compact(slab: number): void {
    const from = this.#slabs[slab]!;
    for (let handle = 0; handle < this.#handles && this.#held[slab] > 0; handle++) {
      if (this.#slabOf[handle] !== slab) continue;
      const offset = this.#offsetOf[handle];
      const length = this.#lengthOf[handle];
      this.#live[slab] -= length;
      this.#held[slab]--;
      const to = this.#place(handle, length);
      from.copy(this.#slabs[to]!, this.#offsetOf[handle], offset, offset + length);
    }
    this.#letGo(slab);
  }

  #letGo(slab: number): void {
    this.#reservedBytes -= this.#slabs[slab]!.length;
    this.#slabs[slab] = undefined;
    if (slab === this.#current) this.#current = NO_SLAB;
    this.#freeSlabs.push(slab);
  }
}

function grown(array: Int32Array<ArrayBuffer>, size: number, fill: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size).fill(fill);
  next.set(array);
  return next;
}
