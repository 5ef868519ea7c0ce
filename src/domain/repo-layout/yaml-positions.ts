// Where each key and value of a YAML record file sits in its source, by the JSON-pointer path
// that validation problems carry ("/platform_components/2/id", "/patches/podinfo").
//
// Built on js-yaml's event parser (parseEvents): it is the parser that loads the record, so
// the offsets always describe exactly the document that was validated, and every event
// carries exact source offsets for keys, values, anchors and tags. (The `yaml` package's
// document API would give the same ranges, but as a second parser that could disagree with
// the first on an edge case, and as a new dependency.)
import { type Event, EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type ScalarEvent } from 'js-yaml';

/** 1-based line and column (in UTF-16 code units, as editors and GitHub count them). */
export interface SourcePosition {
  line: number;
  column: number;
}

export type PositionTarget = 'key' | 'value' | 'auto';

interface Spot {
  /** Offset of the key that holds the value, for entries of a mapping. */
  key?: number;
  /** Offset where the value starts (its anchor, tag, quote or block indicator); absent when empty. */
  value?: number;
  scalar: boolean;
}

interface Frame {
  kind: 'mapping' | 'sequence' | 'ignored';
  path: string;
  index: number;
  expectingKey: boolean;
  key?: { name: string | undefined; offset: number | undefined };
}

/** One segment of a JSON pointer: "~" and "/" escaped as Ajv writes them. */
export function escapePointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export class YamlPositions {
  readonly #text: string;
  readonly #spots = new Map<string, Spot>();
  readonly #lineStarts: number[] = [0];
  readonly #bom: boolean;

  /** Undefined when the text is not valid YAML (the parse error carries its own position). */
  static of(text: string): YamlPositions | undefined {
    let events: Event[];
    try {
      events = parseEvents(text, {});
    } catch {
      return undefined;
    }
    return new YamlPositions(text, events);
  }

  private constructor(text: string, events: Event[]) {
    this.#text = text;
    this.#bom = text.charCodeAt(0) === 0xfeff;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.#lineStarts.push(i + 1);
    this.#index(events);
  }

  /**
   * The position of the key or value at `path`; a path that is not in the file (a missing
   * field) falls back to its nearest existing parent. `auto` points at a scalar value, and at
   * the key of a mapping or list (the line a person looks for).
   */
  locate(path: string, target: PositionTarget = 'auto'): SourcePosition | undefined {
    let current = path === '/' ? '' : path;
    let wanted = target;
    for (;;) {
      const spot = this.#spots.get(current);
      if (spot) {
        const offset = choose(spot, wanted);
        if (offset !== undefined) return this.positionAt(offset);
      }
      if (current === '') return undefined;
      current = current.slice(0, Math.max(0, current.lastIndexOf('/')));
      wanted = 'auto';
    }
  }

  positionAt(offset: number): SourcePosition {
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    const column = offset - this.#lineStarts[low] + 1 - (low === 0 && this.#bom ? 1 : 0);
    return { line: low + 1, column: Math.max(1, column) };
  }

  #index(events: Event[]): void {
    const stack: Frame[] = [];
    let documents = 0;
    for (const event of events) {
      if (event.type === EVENT_ID.DOCUMENT) {
        documents++;
        continue;
      }
      if (documents > 1) return; // load() refuses a second document; nothing to point into
      if (event.type === EVENT_ID.POP) {
        stack.pop();
        continue;
      }
      const top = stack[stack.length - 1];
      const isCollection = event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE;
      if (top?.kind === 'ignored') {
        if (isCollection) stack.push({ kind: 'ignored', path: '', index: 0, expectingKey: false });
        continue;
      }
      if (top?.kind === 'mapping' && top.expectingKey) {
        top.expectingKey = false;
        if (event.type === EVENT_ID.SCALAR) {
          top.key = { name: getScalarValue(this.#text, event), offset: this.#nodeStart(event) };
        } else {
          // A complex key (a mapping or list used as a key): nothing a record can hold.
          top.key = { name: undefined, offset: this.#nodeStart(event) };
          if (isCollection) stack.push({ kind: 'ignored', path: '', index: 0, expectingKey: false });
        }
        continue;
      }

      let path: string | undefined;
      let keyOffset: number | undefined;
      if (top === undefined) {
        path = '';
      } else if (top.kind === 'mapping') {
        path = top.key?.name === undefined ? undefined : `${top.path}/${escapePointerSegment(top.key.name)}`;
        keyOffset = top.key?.offset;
        top.expectingKey = true;
      } else {
        path = `${top.path}/${top.index++}`;
      }
      if (path !== undefined && !this.#spots.has(path)) {
        this.#spots.set(path, { key: keyOffset, value: this.#nodeStart(event), scalar: !isCollection });
      }
      if (isCollection) {
        stack.push(
          path === undefined
            ? { kind: 'ignored', path: '', index: 0, expectingKey: false }
            : { kind: event.type === EVENT_ID.MAPPING ? 'mapping' : 'sequence', path, index: 0, expectingKey: true },
        );
      }
    }
  }

  /** Where a node starts as a person sees it: its anchor or tag, else the value itself. */
  #nodeStart(event: Event): number | undefined {
    switch (event.type) {
      case EVENT_ID.ALIAS:
        return event.anchorStart > 0 ? event.anchorStart - 1 : undefined;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE:
        return firstOf(event.anchorStart >= 0 ? event.anchorStart - 1 : -1, event.tagStart, event.start);
      case EVENT_ID.SCALAR:
        return firstOf(event.anchorStart >= 0 ? event.anchorStart - 1 : -1, event.tagStart, this.#scalarStart(event));
      default:
        return undefined;
    }
  }

  #scalarStart(event: ScalarEvent): number {
    const start = event.valueStart;
    if (start < 0) return -1; // an empty value ("key:" with nothing after it)
    if (event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED) return start - 1;
    if (event.style === SCALAR_STYLE.LITERAL_BLOCK || event.style === SCALAR_STYLE.FOLDED_BLOCK) {
      // The content starts on the next line; point at the "|" or ">" that opens it.
      let end = start;
      while (end > 0 && this.#text[end - 1] !== '\n') end--;
      const headerEnd = end > 0 ? end - 1 : 0;
      const headerStart = this.#text.lastIndexOf('\n', headerEnd - 1) + 1;
      const header = this.#text.slice(headerStart, headerEnd);
      const match = /[|>][-+0-9]*[ \t]*(#.*)?\r?$/.exec(header);
      return match ? headerStart + match.index : start;
    }
    return start;
  }
}

function choose(spot: Spot, target: PositionTarget): number | undefined {
  if (target === 'key') return spot.key ?? spot.value;
  if (target === 'value') return spot.value ?? spot.key;
  return spot.scalar ? (spot.value ?? spot.key) : (spot.key ?? spot.value);
}

function firstOf(...offsets: number[]): number | undefined {
  const present = offsets.filter((o) => o >= 0);
  return present.length > 0 ? Math.min(...present) : undefined;
}
