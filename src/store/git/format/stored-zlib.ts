// A zlib stream of stored (uncompressed) blocks, made of pieces of the content rather than a
// copy of it: the stream of a large tree object (a folder of 50,000 records is a tree of two
// megabytes, rewritten by each write to the folder) is written from the tree's own bytes.
// Format: RFC 1950 (zlib header, Adler-32 trailer) around RFC 1951 stored blocks (a 5-byte
// header each, at most 65,535 bytes of content).
import { adler32 } from './adler32.ts';

/** The most content one stored block holds. */
const BLOCK = 0xffff;

/**
 * The zlib stream of `parts` (in order) in stored blocks: a list of small headers and views
 * of the parts, to be written one after another. Nothing of the content is copied, and
 * nothing read when the caller knows the parts' Adler-32 (`checksum`).
 */
export function storedZlib(parts: readonly Buffer[], checksum?: number): Buffer[] {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  // CMF 0x78 (deflate, 32 KB window), FLG 0x01: the fastest level, and 0x7801 % 31 === 0.
  const out: Buffer[] = [Buffer.from([0x78, 0x01])];
  let left = total;
  let part = 0;
  let offset = 0;
  do {
    const size = Math.min(BLOCK, left);
    left -= size;
    const header = Buffer.alloc(5);
    header[0] = left === 0 ? 1 : 0; // BFINAL, BTYPE 00
    header.writeUInt16LE(size, 1);
    header.writeUInt16LE(~size & 0xffff, 3);
    out.push(header);
    for (let need = size; need > 0;) {
      const take = Math.min(need, parts[part].length - offset);
      if (take > 0) out.push(parts[part].subarray(offset, offset + take));
      need -= take;
      offset += take;
      if (offset === parts[part].length) {
        part++;
        offset = 0;
      }
    }
  } while (left > 0);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(checksum ?? adler32(parts), 0);
  out.push(trailer);
  return out;
}
