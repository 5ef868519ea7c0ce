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
import { applySplices, FileLines } from './record-file-edit-text.ts';
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
  if (text !== undefined && readsBackAs(collection, text, next)) return text;
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
  const editor = new RecordFileEditor(doc, new FileLines(text, leadingComments(text).length), collection);
  const edited = applySplices(text, editor.edit(doc.contents, fileForm(collection, next), [])).replace(/\n*$/, '\n');
  return crlf ? edited.replaceAll('\n', '\r\n') : edited;
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
