// Git's pack format as the native object reader reads it (src/store/git/format/pack-file.ts):
// a pack and its version-2 index written by git, checked against git's own listing of them
// (test/fixtures/git-format/pack/, `git verify-pack -v`); then indexes, entry headers and
// deltas made here byte by byte (gitformat-pack(5)) for what a small repository never shows:
// offsets past 2 GiB, sizes past 32 bits, every form of a delta instruction, and damage.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { objectId, type ObjectType } from '../../../../src/store/git/format/object-id.ts';
import {
  applyDelta,
  deltaSizes,
  findOffset,
  type PackIndex,
  packEntryHeader,
  parseIndex,
} from '../../../../src/store/git/format/pack-file.ts';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/git-format/pack');
const TYPE_CODES: Record<string, number> = { commit: 1, tree: 2, blob: 3 };
const OBJ_REF_DELTA = 7;

interface Listed {
  id: string;
  type: ObjectType;
  size: number;
  offset: number;
  base?: string;
}

/** git verify-pack -v: "<id> <type> <size> <size in pack> <offset> [<depth> <base>]". */
function gitListing(): Listed[] {
  return readFileSync(join(FIXTURE, 'verify-pack.txt'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [id, type, size, , offset, , base] = line.split(/\s+/);
      return {
        id: id,
        type: type as ObjectType,
        size: Number(size),
        offset: Number(offset),
        ...(base ? { base } : {}),
      };
    });
}

function fixturePack(): PackIndex & { pack: Buffer } {
  const index = parseIndex(readFileSync(join(FIXTURE, 'fixture.idx')));
  if (!index) throw new Error('the fixture index was not read');
  return { ...index, packPath: join(FIXTURE, 'fixture.pack'), pack: readFileSync(join(FIXTURE, 'fixture.pack')) };
}

/** A version-2 pack index of `entries` (ids sorted here); offsets of 2^31 and more go to the 64-bit table. */
function buildIndex(entries: { id: string; offset: number }[]): Buffer {
  const sorted = [...entries].sort((a, b) => a.id.localeCompare(b.id));
  const fanout = Buffer.alloc(256 * 4);
  for (let byte = 0; byte < 256; byte++) {
    fanout.writeUInt32BE(sorted.filter((e) => Number.parseInt(e.id.slice(0, 2), 16) <= byte).length, byte * 4);
  }
  const small = Buffer.alloc(sorted.length * 4);
  const large: Buffer[] = [];
  sorted.forEach((entry, i) => {
    if (entry.offset < 2 ** 31) return small.writeUInt32BE(entry.offset, i * 4);
    small.writeUInt32BE((0x80000000 | large.length) >>> 0, i * 4);
    const wide = Buffer.alloc(8);
    wide.writeBigUInt64BE(BigInt(entry.offset));
    large.push(wide);
  });
  const header = Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]);
  const ids = Buffer.concat(sorted.map((e) => Buffer.from(e.id, 'hex')));
  const crcs = Buffer.alloc(sorted.length * 4);
  return Buffer.concat([header, fanout, ids, crcs, small, ...large, Buffer.alloc(40)]);
}

/** A pack entry header: type and size, the size's low 4 bits first, then 7 bits per byte. */
function entryHeader(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size % 16)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1] |= 0x80;
    bytes.push(rest % 128);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

/** A delta's size varint: 7 bits per byte, least significant first. */
function varint(value: number): Buffer {
  const bytes: number[] = [];
  do {
    bytes.push((value % 128) | (value >= 128 ? 0x80 : 0));
    value = Math.floor(value / 128);
  } while (value > 0);
  return Buffer.from(bytes);
}

/** A copy instruction: only the offset and size bytes that are not zero are written. */
function copy(offset: number, size: number): Buffer {
  let op = 0x80;
  const args: number[] = [];
  for (let i = 0; i < 4; i++) {
    const byte = Math.floor(offset / 2 ** (8 * i)) % 256;
    if (byte) {
      op |= 1 << i;
      args.push(byte);
    }
  }
  for (let i = 0; i < 3; i++) {
    const byte = Math.floor(size / 2 ** (8 * i)) % 256;
    if (byte) {
      op |= 1 << (4 + i);
      args.push(byte);
    }
  }
  return Buffer.from([op, ...args]);
}

const insert = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);
const delta = (base: number, result: number, ...instructions: Buffer[]) =>
  Buffer.concat([varint(base), varint(result), ...instructions]);

describe('a pack written by git', () => {
  const pack = fixturePack();
  const listing = gitListing();

  it('has every object git lists in its index, at the offset git gives', () => {
    expect(pack.count).toBe(listing.length);
    for (const object of listing) expect(findOffset(pack, object.id), object.id).toBe(object.offset);
  });

  it('gives each entry the type and size git lists; an undeltified entry inflates to the object with that id', () => {
    for (const object of listing.filter((o) => !o.base)) {
      const header = packEntryHeader(pack.pack, object.offset);
      expect(header, object.id).toMatchObject({ type: TYPE_CODES[object.type], size: object.size });
      const data = inflateSync(pack.pack.subarray(header.pos));
      expect(data.length).toBe(object.size);
      expect(objectId(object.type, data)).toBe(object.id);
    }
  });

  it('rebuilds each deltified object from its base: the result hashes to the id git lists', () => {
    const deltified = listing.filter((o) => o.base);
    expect(deltified.length).toBeGreaterThan(0);
    for (const object of deltified) {
      const header = packEntryHeader(pack.pack, object.offset);
      expect(header, object.id).toMatchObject({ type: OBJ_REF_DELTA, size: object.size });
      // A reference delta names its base by id, in the 20 bytes before the deflated delta.
      expect(pack.pack.toString('hex', header.pos, header.pos + 20)).toBe(object.base);
      const instructions = inflateSync(pack.pack.subarray(header.pos + 20));
      const baseHeader = packEntryHeader(pack.pack, findOffset(pack, object.base!)!);
      const base = inflateSync(pack.pack.subarray(baseHeader.pos));
      expect(deltaSizes(instructions).base).toBe(base.length);
      const result = applyDelta(instructions, base);
      expect(result.length).toBe(deltaSizes(instructions).result);
      expect(objectId(object.type, result)).toBe(object.id);
    }
  });

  it('finds no offset for ids it does not hold: before the first, between two, after the last', () => {
    const ids = listing.map((o) => o.id).sort();
    const absent = ['0000000000000000000000000000000000000000', 'ffffffffffffffffffffffffffffffffffffffff'];
    // The id just after each listed one (its last digit raised), unless that one is listed too.
    for (const id of ids) {
      const next = id.slice(0, 39) + ((Number.parseInt(id[39], 16) + 1) % 16).toString(16);
      if (!ids.includes(next)) absent.push(next);
    }
    for (const id of absent) expect(findOffset(pack, id), id).toBeUndefined();
  });
});

describe('pack indexes', () => {
  it('reads offsets of 2 GiB and more from the 64-bit table, and ids whose first byte is 0x00 or 0xff', () => {
    const entries = [
      { id: `00${'1'.repeat(38)}`, offset: 12 },
      { id: `7f${'2'.repeat(38)}`, offset: 2 ** 31 - 1 },
      { id: `80${'3'.repeat(38)}`, offset: 2 ** 31 },
      { id: `80${'4'.repeat(38)}`, offset: 2 ** 33 + 5 },
      { id: `ff${'5'.repeat(38)}`, offset: 99 },
    ];
    const index = parseIndex(buildIndex(entries));
    expect(index?.count).toBe(5);
    const pack = { ...index!, packPath: 'built.pack' };
    for (const entry of entries) expect(findOffset(pack, entry.id), entry.id).toBe(entry.offset);
    expect(findOffset(pack, `80${'0'.repeat(38)}`)).toBeUndefined();
    expect(findOffset(pack, `01${'1'.repeat(38)}`)).toBeUndefined();
  });

  it('holds nothing when empty', () => {
    const index = parseIndex(buildIndex([]));
    expect(index?.count).toBe(0);
    expect(findOffset({ ...index!, packPath: 'empty.pack' }, '1'.repeat(40))).toBeUndefined();
  });

  it('reads no index of version 1 (no magic number), of another version, or cut short', () => {
    const good = buildIndex([{ id: '1'.repeat(40), offset: 12 }]);
    const version1 = good.subarray(8); // a version-1 index starts with the fanout table
    const version3 = Buffer.from(good);
    version3.writeUInt32BE(3, 4);
    expect(parseIndex(version1)).toBeUndefined();
    expect(parseIndex(version3)).toBeUndefined();
    expect(parseIndex(good.subarray(0, 8 + 255 * 4))).toBeUndefined();
  });
});

describe('pack entry headers', () => {
  it('reads the type and the size from one byte up to sizes past 32 bits, and where the data starts', () => {
    for (const [type, size] of [
      [3, 0],
      [3, 15],
      [1, 16],
      [2, 2047],
      [3, 2048],
      [6, 1_000_000],
      [7, 2 ** 35 + 3],
    ] as const) {
      const header = entryHeader(type, size);
      const data = Buffer.concat([Buffer.from([0xaa, 0xbb]), header, Buffer.from('data')]);
      expect(packEntryHeader(data, 2)).toEqual({ type, size, pos: 2 + header.length });
    }
  });
});

describe('deltas', () => {
  const base = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');

  it('reads both sizes, each one or more bytes long', () => {
    for (const [b, r] of [
      [0, 0],
      [127, 128],
      [16_384, 1_000_000],
      [2 ** 32 + 1, 7],
    ]) {
      const instructions = delta(b, r);
      expect(deltaSizes(instructions)).toEqual({ base: b, result: r, pos: varint(b).length + varint(r).length });
    }
  });

  it('copies from the base with only the offset and size bytes that are set, and inserts new bytes', () => {
    const instructions = delta(base.length, 4 + 3 + 10 + 2, copy(0, 4), insert('NEW'), copy(26, 10), copy(10, 2));
    expect(applyDelta(instructions, base).toString()).toBe('0123NEWqrstuvwxyzab');
    // copy(0, 4) is a single byte plus its size: no offset byte is written for offset 0.
    expect(copy(0, 4)).toEqual(Buffer.from([0x90, 4]));
    expect(copy(0x0100, 0x0100)).toEqual(Buffer.from([0xa2, 1, 1]));
  });

  it('reads a copy of size 0 as 0x10000 bytes', () => {
    const big = Buffer.alloc(0x10010, 7);
    big.write('end', 0x10000);
    const result = applyDelta(delta(big.length, 0x10000, Buffer.from([0x81, 0x00])), big);
    expect(result.equals(big.subarray(0, 0x10000))).toBe(true);
    const shifted = applyDelta(delta(big.length, 0x10000, Buffer.from([0x81, 0x10])), big);
    expect(shifted.toString('latin1', 0x10000 - 0x10, 0x10000 - 0x10 + 3)).toBe('end');
  });

  it('refuses a delta that does not fit its base or its result, or uses the reserved opcode', () => {
    expect(() => applyDelta(delta(base.length + 1, 4, copy(0, 4)), base)).toThrow('delta base size mismatch');
    expect(() => applyDelta(delta(base.length, 4, copy(34, 4)), base)).toThrow('delta copy out of range');
    expect(() => applyDelta(delta(base.length, 3, copy(0, 4)), base)).toThrow('delta copy out of range');
    expect(() => applyDelta(delta(base.length, 2, insert('abc')), base)).toThrow('delta insert out of range');
    expect(() => applyDelta(delta(base.length, 3, Buffer.from([3, 0x61])), base)).toThrow('delta insert out of range');
    expect(() => applyDelta(delta(base.length, 1, Buffer.from([0])), base)).toThrow('delta opcode 0 is reserved');
    expect(() => applyDelta(delta(base.length, 5, copy(0, 4)), base)).toThrow('delta result size mismatch');
  });
});
