// A large JSON answer written out in slices: one list of it item by item, with polls let in
// between (store/runner/event-loop.ts). A preview of 1,000 clusters is a megabyte and more of
// JSON; written in one piece, every poll would wait for it. The text is what JSON.stringify
// makes of the whole (key order, no spaces).
//
// The answer is built as bytes, each piece encoded to UTF-8 in the step that wrote it: a
// text of several megabytes handed to the response as one string is encoded in one go (tens
// of milliseconds at 4 MiB), holding every poll meanwhile.
import type { Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';

/**
 * The UTF-8 bytes of a text written piece by piece, into one buffer that doubles when full: a
 * buffer per piece joined at the end cost more than the encoding (800 pieces of a 3 MiB answer).
 */
export class TextBytes {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  #length = 0;

  add(text: string): void {
    // At most 3 bytes per UTF-16 unit: room for that, so that no character is cut.
    this.#room(text.length * 3);
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /** Bytes written before (UTF-8 of a text). */
  addBytes(bytes: Buffer): void {
    this.#room(bytes.length);
    this.#length += bytes.copy(this.#buffer, this.#length);
  }

  #room(more: number): void {
    const most = this.#length + more;
    if (most <= this.#buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(most, this.#buffer.length * 2));
    this.#buffer.copy(larger, 0, 0, this.#length);
    this.#buffer = larger;
  }

  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}

/** The bytes of JSON.stringify(value), its property `list` (an array) written item by item. */
export function jsonInSlices(value: object, list: string): Promise<Buffer> {
  return runInSlices(pieces(value, list));
}

function* pieces(value: object, list: string): Steps<Buffer> {
  const out = new TextBytes();
  let first = true;
  out.add('{');
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function') continue;
    out.add(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (key !== list || !Array.isArray(item)) {
      out.add(JSON.stringify(item));
      continue;
    }
    out.add('[');
    for (const [i, element] of item.entries()) {
      out.add(`${i === 0 ? '' : ','}${JSON.stringify(element) ?? 'null'}`);
      yield;
    }
    out.add(']');
  }
  out.add('}');
  return out.bytes();
}
