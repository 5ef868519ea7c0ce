// Turns the text of one record file into a checked record. Where the text comes from (a
// working tree, a Git commit) is the caller's business; this is pure.
import { load, YAMLException } from 'js-yaml';
import { type Problem, problem } from '../problem.ts';
import type { AnyRecord, Collection } from '../records.ts';
import { validateRecord } from '../rules/record-schema.ts';
import { recordFileLocation } from './record-path.ts';

export interface ParsedRecordFile {
  collection: Collection;
  /** The file name without extension: the id the record must have. */
  name: string;
  record?: AnyRecord;
  problems: Problem[];
}

/**
 * Parses and checks one record file; undefined for a path outside the layout. The id comes from the file name when the
 * file leaves it out.
 */
export function parseRecordFile(path: string, text: string): ParsedRecordFile | undefined {
  const location = recordFileLocation(path);
  if (!location) return undefined;
  const { collection, name } = location;
  const record = { collection, id: name };
  const refuse = (code: Problem['code'], message: string, at: Partial<Problem['at']> = {}): ParsedRecordFile => ({
    collection,
    name,
    problems: [problem(code, { record, field: '', file: path, ...at }, message)],
  });

  if (name.includes('/'))
    return refuse('nested_record_file', `records must sit directly in ${collection}/, not in a subfolder`);
  let document: unknown;
  try {
    document = text.trim() === '' ? undefined : load(text, { filename: path });
  } catch (error) {
    if (error instanceof YAMLException) {
      return refuse('yaml_syntax', `YAML syntax error: ${error.reason}`, {
        line: error.mark ? error.mark.line + 1 : undefined,
        column: error.mark ? error.mark.column + 1 : undefined,
      });
    }
    return refuse('yaml_syntax', `cannot be read as YAML: ${(error as Error).message}`);
  }
  if (document === undefined || document === null)
    return refuse('empty_file', 'the file is empty; it must hold one record');
  if (typeof document !== 'object' || Array.isArray(document)) {
    return refuse('not_a_mapping', 'must be a YAML mapping of field names to values (one record per file)');
  }

  const fields = document as Record<string, unknown>;
  if (fields.id === undefined) {
    fields.id = name;
  } else if (fields.id !== name) {
    return refuse(
      'id_mismatch',
      `id ${JSON.stringify(fields.id)} does not match the file name; it must be "${name}" (or be left out)`,
      { field: '/id' },
    );
  }
  // The document was parsed just above and is not kept: no need to copy it.
  const result = validateRecord(collection, fields, { inPlace: true });
  if (!result.ok) {
    return { collection, name, problems: result.problems.map((p) => ({ ...p, at: { ...p.at, record, file: path } })) };
  }
  return { collection, name, record: result.record, problems: [] };
}
