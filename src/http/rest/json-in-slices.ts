// A large JSON answer written out in slices: one list of it item by item, with polls let in
// between (store/runner/event-loop.ts). A preview of 1,000 clusters is a megabyte and more of
// JSON; written in one piece, every poll would wait for it. The text is what JSON.stringify
// makes of the whole (key order, no spaces).
//
// The answer is built as bytes, each piece encoded to UTF-8 in the step that wrote it: a
// text of several megabytes handed to the response as one string is encoded in one go (tens
// of milliseconds at 4 MiB), holding every poll meanwhile; the pieces' bytes are joined by a copy.
import type { Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';

/** The UTF-8 bytes of a text written piece by piece. */
export class TextBytes {
  readonly #parts: Buffer[] = [];

  add(text: string): void {
    this.#parts.push(Buffer.from(text, 'utf8'));
  }

  bytes(): Buffer {
    return Buffer.concat(this.#parts);
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
