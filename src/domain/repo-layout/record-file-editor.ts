// The splices that make a record file's YAML document hold the wanted record, for
// ./record-file-edit.ts to apply to the file's text:
//
// - A value equal to the wanted one is not touched. A changed scalar keeps its quoting style
//   where it can hold the new value. A changed key that cannot be edited in place (a flow
//   collection, a scalar that becomes a list...) is written again as a whole.
// - Removed keys and list items go with the comment lines right above them (they describe
//   what is removed) and the blank lines above those. New keys go right before the first
//   existing key that follows them in the wanted record (at the top level of a canonical
//   record, that is the canonical field order), else at the end of their map. New values are
//   written as recordFileText writes them, except that a string with line breaks stays on one
//   line, double-quoted (a block scalar could swallow what follows the splice).
// - List items are matched by `id` (by value when they have none), so an item keeps its
//   comments when others are added, removed or changed around it.
// - The file keeps what it says about defaults: an `id` it leaves out (the file name gives
//   it), a field it leaves out whose wanted value is the schema default, an override it
//   spells as null.
import { isDeepStrictEqual } from 'node:util';
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import type { Collection } from '../records.ts';
import { RECORD_SCHEMAS } from '../rules/record-schema.ts';
import {
  blockText,
  type FileLines,
  inlineText,
  keepsLineBreaks,
  NotInPlace,
  renderLines,
  scalarText,
  type Splice,
} from './record-file-edit-text.ts';

/** The values of these fields are strings; new ones are written double-quoted, like recordFileText does. */
const STRING_MAPS = new Set(['patches', 'labels', 'annotations']);

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Entry = Pair<Scalar, Node>;

export class RecordFileEditor {
  private readonly doc: Document;
  private readonly lines: FileLines;
  private readonly collection: Collection;

  constructor(doc: Document, lines: FileLines, collection: Collection) {
    this.doc = doc;
    this.lines = lines;
    this.collection = collection;
  }

  /** The splices that make `node` hold `want`; throws NotInPlace when it must be written again as a whole. */
  edit(node: Node, want: unknown, path: string[]): Splice[] {
    if (isDeepStrictEqual(node.toJS(this.doc), want)) return [];
    if (isScalar(node) && (want === null || typeof want !== 'object')) {
      // An empty value (`key:`) has no room for a new one after the colon: write the key again.
      if (!node.range || node.range[0] === node.range[1]) throw new NotInPlace();
      return [{ start: node.range[0], end: this.contentEnd(node), text: scalarText(want, node.type) }];
    }
    if (isMap(node) && !node.flow && isPlain(want)) return this.editMap(node, want, path);
    if (isSeq(node) && !node.flow && Array.isArray(want)) return this.editSeq(node, want, path);
    throw new NotInPlace();
  }

  private editMap(map: YAMLMap, want: Plain, path: string[]): Splice[] {
    // A block mapping cannot be empty: `{}` replaces it.
    if (Object.keys(want).length === 0) throw new NotInPlace();
    const entries = new Map((map.items as Entry[]).map((pair) => [String(pair.key.value), pair]));
    const out: Splice[] = [];
    (map.items as Entry[]).forEach((pair, i) => {
      const key = String(pair.key.value);
      // Keys such as 1 and "1" are one key to the loader, which refuses the file; so does the
      // read-back check, whatever is done here.
      if (entries.get(key) !== pair) return;
      if (Object.hasOwn(want, key))
        out.push(
          ...this.editOrRewrite(pair.value!, want[key], [...path, key], pair.key.range![0], { [key]: want[key] }),
        );
      // A key the wanted record leaves out goes, unless the file spells it as null (an override
      // left out means null too) or as its default (a wave's `soak: 0s`): the file means the same.
      else if (!(isScalar(pair.value) && pair.value.value === null) && !this.spelledDefault(path, key, pair.value!)) {
        out.push(this.remove(pair.key.range![0], pair.value!, false, (map.items[i - 1] as Entry | undefined)?.value));
      }
    });
    const keys = Object.keys(want);
    const column = this.lines.column((map.items[0] as Entry).key.range![0]);
    keys.forEach((key, i) => {
      if (entries.has(key) || this.leftOut(path, key, want[key])) return;
      const before = keys.slice(i + 1).find((k) => entries.has(k));
      const at =
        before !== undefined
          ? this.lines.entryStart(entries.get(before)!.key.range![0], false).start
          : this.lines.entryEnd(this.contentEnd((map.items.at(-1) as Entry).value!), column);
      out.push({ start: at, end: at, text: blockText(renderLines({ [key]: want[key] }, quoted(path, key)), column) });
    });
    return out;
  }

  private editSeq(seq: YAMLSeq, want: unknown[], path: string[]): Splice[] {
    // A block sequence cannot be empty: `[]` replaces it.
    if (want.length === 0) throw new NotInPlace();
    const items = seq.items as Node[];
    const have = items.map((item) => item.toJS(this.doc) as unknown);
    const itemAt = (i: number, value: unknown) =>
      this.editOrRewrite(items[i], value, [...path, String(i)], items[i].range![0], value);
    const out: Splice[] = [];
    let [i, j] = [0, 0];
    for (const [mi, mj] of [
      ...commonItems(have.map(identity), want.map(identity)),
      [items.length, want.length],
    ] as const) {
      // Old items i..mi-1 give way to wanted items j..mj-1: maps without an id are edited in
      // place pairwise (a changed subject keeps its comments); the rest go, the new ones come
      // in right before the next kept item (or after the last one).
      let k = 0;
      for (; i + k < mi && j + k < mj && withoutId(have[i + k]) && withoutId(want[j + k]); k++)
        out.push(...itemAt(i + k, want[j + k]));
      for (let x = i + k; x < mi; x++) out.push(this.remove(items[x].range![0], items[x], true, items[x - 1]));
      if (j + k < mj) {
        const column = this.lines.entryStart(items[0].range![0], true).column;
        const at =
          mi < items.length
            ? this.lines.entryStart(items[mi].range![0], true).start
            : this.lines.entryEnd(this.contentEnd(items.at(-1)!), column);
        out.push({ start: at, end: at, text: blockText(renderLines(want.slice(j + k, mj), quoted(path)), column) });
      }
      if (mi < items.length) out.push(...itemAt(mi, want[mj]));
      [i, j] = [mi + 1, mj + 1];
    }
    return out;
  }

  /** Edits `node` in place, or writes it again from `start` (its key, or its item content) with `rendered`. */
  private editOrRewrite(node: Node, want: unknown, path: string[], start: number, rendered: unknown): Splice[] {
    try {
      return this.edit(node, want, path);
    } catch (error) {
      if (!(error instanceof NotInPlace)) throw error;
      const text = inlineText(renderLines(rendered, quoted(path.slice(0, -1), path.at(-1))), this.lines.column(start));
      return [{ start, end: this.contentEnd(node), text }];
    }
  }

  /**
   * Removes an entry with its own comment lines, and the blank lines above it back to the entry before it (`previous`),
   * if any.
   */
  private remove(start: number, node: Node, item: boolean, previous: Node | null | undefined): Splice {
    const { start: from, column } = this.lines.entryStart(start, item);
    const bound = previous ? this.lines.lineEnd(this.contentEnd(previous)) : from;
    return {
      start: this.lines.blankLinesAbove(from, bound),
      end: this.lines.entryEnd(this.contentEnd(node), column),
      text: '',
    };
  }

  /**
   * Whether a key the file does not have stays out: the id (the file name gives it), or a
   * field at its schema default, at the top level or in an item of a list (a rollout's wave
   * that leaves its soak out keeps leaving it out when `released` moves).
   */
  private leftOut(path: string[], key: string, value: unknown): boolean {
    if (path.length === 0 && key === 'id') return true;
    const fallback = schemaDefault(RECORD_SCHEMAS[this.collection], path, key);
    return fallback !== undefined && isDeepStrictEqual(value, fallback);
  }

  /** Whether the file gives a field the value the schema gives it when it is left out. */
  private spelledDefault(path: string[], key: string, node: Node): boolean {
    const fallback = schemaDefault(RECORD_SCHEMAS[this.collection], path, key);
    return fallback !== undefined && isDeepStrictEqual(node.toJS(this.doc), fallback);
  }

  /**
   * Where the last character of a node's own text is: not its trailing comment, nor the line break ending a block
   * scalar.
   */
  private contentEnd(node: Node): number {
    if ((isMap(node) || isSeq(node)) && !node.flow && node.items.length > 0) {
      const last = node.items.at(-1);
      return this.contentEnd((isPair(last) ? last.value : last) as Node);
    }
    let end = node.range![1];
    if (!isScalar(node) || !node.type?.startsWith('BLOCK')) return end;
    // A block scalar's range takes in the line breaks after it. With "keep" chomping (|+, >+)
    // they are its content, up to the last one; otherwise its content ends with its last line.
    if (keepsLineBreaks(node, this.lines.text)) return end - 1;
    while (end > node.range![0] && this.lines.text[end - 1] === '\n') end--;
    return end;
  }
}

interface SchemaNode {
  $ref?: string;
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  definitions?: Record<string, SchemaNode>;
}

/** The default the schema gives the field `key` of the object at `path` (list indexes included), if any. */
function schemaDefault(root: SchemaNode, path: string[], key: string): unknown {
  const resolve = (node: SchemaNode | undefined): SchemaNode | undefined =>
    node?.$ref?.startsWith('#/definitions/')
      ? resolve(root.definitions?.[node.$ref.slice('#/definitions/'.length)])
      : node;
  let node = resolve(root);
  for (const segment of path)
    node = resolve(/^\d+$/.test(segment) && node?.items ? node.items : node?.properties?.[segment]);
  // A default stands beside a $ref ("soak": {"$ref": ..., "default": "0s"}): read before resolving.
  return node?.properties?.[key]?.default;
}

/** Whether a value at `path` (the top-level field first) under `key` is one whose strings are always quoted. */
function quoted(path: string[], key?: string): boolean {
  return STRING_MAPS.has(path[0] ?? key ?? '');
}

const withoutId = (value: unknown) => isPlain(value) && !Object.hasOwn(value, 'id');

/** What matches a list item with its counterpart in the other list: its id, else its value. */
function identity(value: unknown): string {
  return isPlain(value) && typeof value.id === 'string' ? `#${value.id}` : JSON.stringify(value);
}

/** The pairs [old index, new index] of a longest common subsequence of two lists of identities. */
function commonItems(a: string[], b: string[]): [number, number][] {
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (lengths[i + 1][j] >= lengths[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}
