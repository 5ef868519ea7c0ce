// The text side of record-file-edit.ts: how a new or changed value is spelled, where an entry
// of a block collection (a key with its value, or a "- " item) sits in the file as whole
// lines, and how the resulting splices are put together. Pure string work, no YAML model.
import { DEFAULT_SCALAR_STYLE_RULES, dump, SCALAR_STYLE, type ScalarStyleRule } from 'js-yaml';

/** Replace `text.slice(start, end)` with `text`; start === end inserts. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

// A string with a line break is written double-quoted on one line, never as a block scalar:
// text spliced in may be followed by the rest of a line (a comment) or by blank lines, which a
// block scalar would take in as its content.
const oneLine: ScalarStyleRule = (layout) => {
  if (layout.style === SCALAR_STYLE.PLAIN && layout.node.value.includes('\n'))
    layout.style = SCALAR_STYLE.DOUBLE_QUOTED;
};
const scalarStyleRules = Object.values(DEFAULT_SCALAR_STYLE_RULES).map((rule) =>
  rule === DEFAULT_SCALAR_STYLE_RULES.tryLongOrMultilineAsBlock ? oneLine : rule,
);
const DUMP = { lineWidth: -1, noRefs: true, quoteStyle: 'double', scalarStyleRules } as const;

/**
 * `value` as YAML lines (no final newline) in the form recordFileText writes, but for strings
 * with line breaks (see oneLine): double quotes where quotes are needed, and on every string
 * when `quoted` (the values of patches, labels and annotations, so "3" and "true" stay strings
 * when someone edits them by hand later).
 */
export function renderLines(value: unknown, quoted: boolean): string[] {
  return dump(value, { ...DUMP, forceQuotes: quoted })
    .replace(/\n$/, '')
    .split('\n');
}

// What a single-quoted scalar can hold on one line and read back unchanged: printable
// characters, no line breaks (they would be folded) and none that YAML treats as one.
const SINGLE_QUOTABLE = /^[\t\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]*$/u;

/**
 * The new text of a scalar that changed, in the style the person chose for the old one where
 * it can hold the new value: single quotes stay single, double stay double, plain stays plain
 * unless the value would read back as something else (then double quotes). Always one line.
 */
export function scalarText(value: unknown, style: string | undefined): string {
  if (typeof value !== 'string') return dump(value, DUMP).replace(/\n$/, '');
  if (style === 'QUOTE_SINGLE' && SINGLE_QUOTABLE.test(value)) return `'${value.replaceAll("'", "''")}'`;
  return dump(value, { ...DUMP, forceQuotes: style === 'QUOTE_DOUBLE' }).replace(/\n$/, '');
}

/** Lines spliced in where a value was: the first goes where the old one began, the others at `column`. */
export function inlineText(lines: string[], column: number): string {
  return lines.map((line, i) => (i === 0 || line === '' ? line : ' '.repeat(column) + line)).join('\n');
}

/** Whole lines inserted at a line start, each at `column`. */
export function blockText(lines: string[], column: number): string {
  return lines.map((line) => (line === '' ? '\n' : `${' '.repeat(column)}${line}\n`)).join('');
}

/** Whether a block scalar keeps the line breaks after its last line ("keep" chomping: |+, >+). */
export function keepsLineBreaks(
  node: { type?: string; range?: [number, number, number] | null },
  text: string,
): boolean {
  return !!node.type?.startsWith('BLOCK') && !!node.range && /^[|>][1-9]?\+/.test(text.slice(node.range[0]));
}

/** Lets the editor ask for a replacement: thrown when a node cannot be edited where it is. */
export class NotInPlace extends Error {}

/** Line geometry of one file's text. */
export class FileLines {
  readonly text: string;
  /** Spans never reach above this offset (the end of the file's leading comment block). */
  private readonly floor: number;

  constructor(text: string, floor: number) {
    this.text = text;
    this.floor = floor;
  }

  lineStart(pos: number): number {
    return this.text.lastIndexOf('\n', pos - 1) + 1;
  }

  /** The offset just after the line break that ends the line holding `pos`. */
  lineEnd(pos: number): number {
    const at = this.text.indexOf('\n', pos);
    return at === -1 ? this.text.length : at + 1;
  }

  column(pos: number): number {
    return pos - this.lineStart(pos);
  }

  /**
   * Where the entry whose key (or item content) begins at `start` starts as whole lines: its
   * line, and the comment lines right above it at its own indentation (they describe it). A
   * key must begin its line and an item must be "- " at the start of its line; anything else
   * (such as the first key of a map that is a "- " item) cannot be cut out by lines.
   */
  entryStart(start: number, item: boolean): { start: number; column: number } {
    let s = this.lineStart(start);
    const match = (item ? /^( *)- +$/ : /^( *)$/).exec(this.text.slice(s, start));
    if (!match) throw new NotInPlace();
    const column = match[1].length;
    while (s > this.floor) {
      const above = this.lineStart(s - 1);
      const line = this.text.slice(above, s - 1);
      if (!/^ *#/.test(line) || line.indexOf('#') !== column) break;
      s = above;
    }
    return { start: s, column };
  }

  /** `start` moved up over the blank lines right above it, but not above `bound`. */
  blankLinesAbove(start: number, bound: number): number {
    let s = start;
    while (s > bound && s > this.floor) {
      const above = this.lineStart(s - 1);
      if (above < bound || !/^[ \t]*$/.test(this.text.slice(above, s - 1))) break;
      s = above;
    }
    return s;
  }

  /**
   * Where an entry whose content ends at `contentEnd` ends: after its last line and the more-indented comment lines
   * under it.
   */
  entryEnd(contentEnd: number, column: number): number {
    let e = this.lineEnd(contentEnd);
    for (;;) {
      const next = this.lineEnd(e);
      const line = this.text.slice(e, next).replace(/\n$/, '');
      if (e >= this.text.length || !/^ *#/.test(line) || line.indexOf('#') <= column) return e;
      e = next;
    }
  }
}

/**
 * Applies splices that do not overlap; at one offset, insertions come before the text that
 * replaces a removal there, in the order they were made. The text is put together once, from
 * its pieces: a change set adding 1,000 keys to one file of a megabyte splices it 1,000 times.
 */
export function applySplices(text: string, splices: Splice[]): string {
  const order = splices
    .map((splice, i) => ({ ...splice, i }))
    .sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start) || a.i - b.i);
  const pieces: string[] = [];
  let at = 0;
  for (const { start, end, text: replacement } of order) {
    if (start < at || start > end || end > text.length) throw new Error('overlapping edits');
    pieces.push(text.slice(at, start), replacement);
    at = end;
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}
