// Git's pack format, the parts the blob reader needs: version-2 pack indexes (fanout, sorted
// ids, offsets) and the delta encoding of packed objects.

export interface PackIndex {
  packPath: string;
  fanout: Uint32Array;
  /** N object ids of 20 bytes, sorted. */
  ids: Buffer;
  offsets: Buffer;
  largeOffsets: Buffer;
  count: number;
}

/** A version-2 pack index; undefined for anything else. */
export function parseIndex(idx: Buffer): Omit<PackIndex, 'packPath'> | undefined {
  if (idx.length < 8 + 256 * 4 || idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) return undefined;
  const fanout = new Uint32Array(256);
  for (let i = 0; i < 256; i++) fanout[i] = idx.readUInt32BE(8 + i * 4);
  const count = fanout[255];
  const idsStart = 8 + 256 * 4;
  const offsetsStart = idsStart + count * 20 + count * 4;
  const largeStart = offsetsStart + count * 4;
  return {
    fanout,
    count,
    ids: idx.subarray(idsStart, idsStart + count * 20),
    offsets: idx.subarray(offsetsStart, largeStart),
    largeOffsets: idx.subarray(largeStart),
  };
}

export function findOffset(pack: PackIndex, oid: string): number | undefined {
  const wanted = Buffer.from(oid, 'hex');
  const first = wanted[0];
  let low = first === 0 ? 0 : pack.fanout[first - 1];
  let high = pack.fanout[first] - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const cmp = pack.ids.compare(wanted, 0, 20, mid * 20, mid * 20 + 20);
    if (cmp === 0) {
      const small = pack.offsets.readUInt32BE(mid * 4);
      if (!(small & 0x80000000)) return small;
      return Number(pack.largeOffsets.readBigUInt64BE((small & 0x7fffffff) * 8));
    }
    // cmp compares the index entry with the wanted id.
    if (cmp < 0) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}

/** A pack entry's header: the object type, its (inflated) size, and where its data starts. */
export function packEntryHeader(data: Buffer, offset: number): { type: number; size: number; pos: number } {
  let pos = offset;
  let byte = data[pos++];
  const type = (byte >> 4) & 7;
  let size = byte & 15;
  let shift = 4;
  while (byte & 0x80) {
    byte = data[pos++]!;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  return { type, size, pos };
}

/**
 * A delta's two leading sizes (little-endian base-128 varints): its base's and its result's; `pos` where the
 * instructions start.
 */
export function deltaSizes(delta: Buffer): { base: number; result: number; pos: number } {
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[pos++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80 && pos < delta.length);
    return value;
  };
  const base = varint();
  const result = varint();
  return { base, result, pos };
}

/** Git's delta format: sizes, then copy-from-base and insert instructions. */
export function applyDelta(delta: Buffer, base: Buffer): Buffer {
  const sizes = deltaSizes(delta);
  let pos = sizes.pos;
  if (sizes.base !== base.length) throw new Error('delta base size mismatch');
  const out = Buffer.allocUnsafe(sizes.result);
  let written = 0;
  while (pos < delta.length) {
    const op = delta[pos++];
    if (op & 0x80) {
      let copyOffset = 0;
      let copySize = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) copyOffset += delta[pos++] * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (1 << (4 + i))) copySize += delta[pos++] * 2 ** (8 * i);
      if (copySize === 0) copySize = 0x10000;
      if (copyOffset + copySize > base.length || written + copySize > out.length)
        throw new Error('delta copy out of range');
      base.copy(out, written, copyOffset, copyOffset + copySize);
      written += copySize;
    } else if (op > 0) {
      if (written + op > out.length || pos + op > delta.length) throw new Error('delta insert out of range');
      delta.copy(out, written, pos, pos + op);
      pos += op;
      written += op;
    } else {
      throw new Error('delta opcode 0 is reserved');
    }
  }
  if (written !== out.length) throw new Error('delta result size mismatch');
  return out;
}
