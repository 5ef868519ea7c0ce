// A write changes only what it changes (docs/decisions/0005-git-backend-writes.md): the new text of an existing
// record file is its old text with only the values that differ spliced in, so comments, key
// order, blank lines, indentation and the quoting a person chose stay byte for byte
// everywhere else. The `yaml` document model says where each value sits in the text; the
// text is then edited in place rather than printed again, because printing a document model
// normalizes spacing and escapes that a person wrote. What an edit changes, and what it keeps,
// is ./record-file-editor.ts's.
//
// The result is always checked by reading it back the way the loader does; whenever the file
// cannot be edited safely in place (not one YAML mapping, anchors, aliases, tags, merge keys)
// or the check fails, the file is written from scratch by recordFileText, keeping its leading
// comment block, as a write did before.
import { isDeepStrictEqual } from 'node:util';
import { type Document, isAlias, isMap, isScalar, parseDocument, visit } from 'yaml';
import type { AnyRecord, Collection } from '../records.ts';
import { validateRecord } from '../rules/record-schema.ts';
import { applySplices, FileLines, keepsLineBreaks, type Splice } from './record-file-edit-text.ts';
import { RecordFileEditor } from './record-file-editor.ts';
import { parseRecordFile } from './record-file-parse.ts';
import { fileForm, leadingComments, recordFileText } from './record-file-text.ts';
import { recordFilePath } from './record-path.ts';

/**
 * What a write puts in a record file: the file's old text edited in place when there is one,
 * else the standard form, starting with `header` (the schema hint the folder's files use).
 */
export function nextRecordFileText(
  collection: Collection,
  next: AnyRecord,
  previousText: string | undefined,
  header = '',
): string {
  return previousText === undefined
    ? recordFileText(collection, next, header)
    : editRecordFileText(collection, previousText, next);
}

/** The new text of a record file: `previousText` edited so that it holds `next`, changing only what differs. */
export function editRecordFileText(collection: Collection, previousText: string, next: AnyRecord): string {
  let text: string | undefined;
  try {
    text = editInPlace(collection, previousText, next);
  } catch {
    // Any surprise in the old text (or here) only costs the person's formatting, never the write.
    text = undefined;
  }
  // One final line break, unless the last value is a |+ block scalar whose line breaks are its own.
  for (const candidate of text === undefined ? [] : [text.replace(/\n*$/, '\n'), text])
    if (readsBackAs(collection, candidate, next)) return candidate;
  return recordFileText(collection, next, leadingComments(previousText));
}

/** Whether `text`, read as the loader reads the record's file, gives exactly `next`. */
function readsBackAs(collection: Collection, text: string, next: AnyRecord): boolean {
  const read = parseRecordFile(recordFilePath(collection, next.id), text);
  const wanted = validateRecord(collection, next);
  return read?.record !== undefined && wanted.ok && isDeepStrictEqual(read.record, wanted.record);
}

function editInPlace(collection: Collection, previousText: string, next: AnyRecord): string | undefined {
  // Edited with "\n" line breaks; a file written with "\r\n" throughout gets them back.
  const crlf = previousText.includes('\r\n') && !/(^|[^\r])\n/.test(previousText);
  const text = previousText.replaceAll('\r\n', '\n');
  if (text.includes('\r')) return undefined;
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || doc.directives?.yaml.explicit || !isMap(doc.contents) || doc.contents.flow)
    return undefined;
  if (!plainYaml(doc)) return undefined;
  const lines = new FileLines(text, leadingComments(text).length);
  const editor = new RecordFileEditor(doc, lines, collection);
  const splices = keepBlockScalarsWhole(doc, lines, editor.edit(doc.contents, fileForm(collection, next), []));
  const edited = applySplices(text, splices).replace(/([^\n])$/, '$1\n');
  return crlf ? edited.replaceAll('\n', '\r\n') : edited;
}

/**
 * A block scalar with "keep" chomping (|+, >+) takes in every blank line that follows it. When
 * the entries right after one are removed, the blank lines that followed them would become part
 * of its value: the last of those removals takes them too.
 */
function keepBlockScalarsWhole(doc: Document, lines: FileLines, splices: Splice[]): Splice[] {
  const removals = new Map(splices.filter((s) => s.text === '' && s.start < s.end).map((s) => [s.start, s]));
  // Without a removal, or without a block scalar header that keeps, there is nothing to do.
  if (removals.size === 0 || !/[|>][1-9]?\+/.test(lines.text)) return splices;
  const starts = new Set(splices.map((s) => s.start));
  visit(doc, {
    Scalar(_, node) {
      if (!node.range || !keepsLineBreaks(node, lines.text)) return;
      // One removed or written again takes its line breaks with it.
      if (splices.some((s) => s.start <= node.range![0] && node.range![0] < s.end)) return;
      let last = removals.get(node.range[1]);
      while (last && removals.has(last.end)) last = removals.get(last.end)!;
      if (!last || starts.has(last.end)) return;
      let end = last.end;
      while (end < lines.text.length && /^[ \t]*\n$/.test(lines.text.slice(end, lines.lineEnd(end))))
        end = lines.lineEnd(end);
      if (![...starts].some((start) => start > last.end && start < end)) last.end = end;
    },
  });
  return splices;
}

/** No anchors, aliases, explicit tags, merge keys or complex keys: every value is written once, where it is read. */
function plainYaml(doc: Document): boolean {
  let plain = true;
  visit(doc, {
    Node(_, node) {
      if (isAlias(node) || node.anchor || node.tag) plain = false;
    },
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.value === '<<' || !pair.value) plain = false;
    },
  });
  return plain;
}
