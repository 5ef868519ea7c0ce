// Finds a key given twice in one JSON object. JSON.parse keeps the last of them without a
// word, so `{"id": "a", "id": "b"}` would be stored as "b" although the client may have
// meant "a" (or sent a document two tools merged badly); a request body with one is refused
// instead. Keys are compared as JSON.parse would see them, after their escapes are read:
// `{"a": 1, "\u0061": 2}` names "a" twice.
//
// The scanner reads the JSON grammar whole (RFC 8259, as JSON.parse does) and throws
// SyntaxError on anything JSON.parse would refuse, so it never judges a document JSON.parse
// reads differently. It walks with its own stack, never by recursion: a body nested 100,000
// levels deep is read like any other.

import { runSteps, type Steps } from '../../domain/steps.ts';

export interface DuplicateKey {
  /** The key as JSON.parse reads it. */
  key: string;
  /** JSON Pointer (RFC 6901) of the second occurrence: "/platform_components/0/id". */
  path: string;
}

interface ObjectFrame {
  kind: 'object';
  keys: Set<string>;
  key: string;
}

interface ArrayFrame {
  kind: 'array';
  index: number;
}

type Frame = ObjectFrame | ArrayFrame;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** The first key that repeats in its object, in document order; undefined when there is none. */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  return runSteps(duplicateKeySteps(text));
}

/** findDuplicateKey in steps of VALUES_A_STEP values: a body of a megabyte is tens of milliseconds of reading. */
export function duplicateKeySteps(text: string): Steps<DuplicateKey | undefined> {
  return new Scanner(text).run();
}

const VALUES_A_STEP = 4096;

class Scanner {
  readonly #text: string;
  readonly #stack: Frame[] = [];
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  *run(): Steps<DuplicateKey | undefined> {
    this.#skipSpace();
    for (let values = 1; ; values++) {
      if (values % VALUES_A_STEP === 0) yield;
      // A value starts here.
      const c = this.#text.charCodeAt(this.#at);
      if (c === 0x7b /* { */) {
        this.#at++;
        this.#skipSpace();
        if (this.#text.charCodeAt(this.#at) === 0x7d /* } */) {
          this.#at++;
        } else {
          const frame: ObjectFrame = { kind: 'object', keys: new Set(), key: '' };
          this.#stack.push(frame);
          const duplicate = this.#member(frame);
          if (duplicate) return duplicate;
          continue;
        }
      } else if (c === 0x5b /* [ */) {
        this.#at++;
        this.#skipSpace();
        if (this.#text.charCodeAt(this.#at) === 0x5d /* ] */) {
          this.#at++;
        } else {
          this.#stack.push({ kind: 'array', index: 0 });
          continue;
        }
      } else if (c === QUOTE) {
        this.#string(false);
      } else {
        this.#scalar();
      }
      // A value ended: what follows it closes its containers or starts the next member.
      for (;;) {
        this.#skipSpace();
        const frame = this.#stack.at(-1);
        if (frame === undefined) {
          if (this.#at !== this.#text.length) this.#fail('unexpected text after the JSON value');
          return undefined;
        }
        const next = this.#text.charCodeAt(this.#at);
        if (next === 0x2c /* , */) {
          this.#at++;
          this.#skipSpace();
          if (frame.kind === 'array') {
            frame.index++;
          } else {
            const duplicate = this.#member(frame);
            if (duplicate) return duplicate;
          }
          break;
        }
        if (next === (frame.kind === 'object' ? 0x7d : 0x5d)) {
          this.#at++;
          this.#stack.pop();
          continue;
        }
        this.#fail(`expected , or ${frame.kind === 'object' ? '}' : ']'}`);
      }
    }
  }

  /** Reads `"key" :` of an object member and remembers the key; the value comes next. */
  #member(frame: ObjectFrame): DuplicateKey | undefined {
    if (this.#text.charCodeAt(this.#at) !== QUOTE) this.#fail('expected a string key');
    const key = this.#string(true);
    this.#skipSpace();
    if (this.#text.charCodeAt(this.#at) !== 0x3a /* : */) this.#fail('expected :');
    this.#at++;
    this.#skipSpace();
    frame.key = key;
    if (frame.keys.has(key)) return { key, path: this.#pointer() };
    frame.keys.add(key);
    return undefined;
  }

  /** Reads a string literal; returns its value when `value` says so (a key), else ''. */
  #string(value: boolean): string {
    const text = this.#text;
    const start = this.#at;
    let escaped = false;
    let i = start + 1;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (Number.isNaN(c)) this.#fail('unterminated string', i);
      if (c < 0x20) this.#fail('control character in a string', i);
      if (c === BACKSLASH) {
        escaped = true;
        const e = text.charCodeAt(i + 1);
        if (e === 0x75 /* u */) {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) this.#fail('bad \\u escape', i);
          i += 6;
          continue;
        }
        // " \ / b f n r t
        if (
          e !== QUOTE &&
          e !== BACKSLASH &&
          e !== 0x2f &&
          e !== 0x62 &&
          e !== 0x66 &&
          e !== 0x6e &&
          e !== 0x72 &&
          e !== 0x74
        ) {
          this.#fail('bad escape', i);
        }
        i += 2;
        continue;
      }
      i++;
    }
    this.#at = i + 1;
    if (!value) return '';
    // The literal is checked above; JSON.parse reads its escapes exactly as the body's parse did.
    return escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
  }

  /** true, false, null or a number. */
  #scalar(): void {
    for (const literal of ['true', 'false', 'null']) {
      if (this.#text.startsWith(literal, this.#at)) {
        this.#at += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = this.#at;
    if (!NUMBER.test(this.#text)) this.#fail('expected a JSON value');
    this.#at = NUMBER.lastIndex;
  }

  #skipSpace(): void {
    const text = this.#text;
    let i = this.#at;
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
    this.#at = i;
  }

  /** Where the scanner is now: the key just read, under the keys and indexes of its containers. */
  #pointer(): string {
    return this.#stack.map((frame) => `/${frame.kind === 'object' ? escapePointer(frame.key) : frame.index}`).join('');
  }

  #fail(what: string, at = this.#at): never {
    throw new SyntaxError(`${what} at position ${at}`);
  }
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
