// The config repo layout: clusters/<id>.yaml, platform_components/<id>.yaml,
// namespaces/<id>.yaml, rolebindings/<id>.yaml — one record per file. This turns the text of
// those files into record sets; where the files come from (a working tree, a Git commit)
// is the caller's business.
import { load, YAMLException } from 'js-yaml';
import type { Problem } from './problems.ts';
import { type Collection, COLLECTIONS, type RecordSets } from './records.ts';
import { validateRecord } from './record-validation.ts';

export interface ConfigFile {
  /** Path inside the repo, with forward slashes: "clusters/demo.yaml". */
  path: string;
  text: string;
}

export interface ParsedConfigRepo {
  records: RecordSets;
  problems: Problem[];
  /** "collection/id" -> the file that defines it, to point problems at files. */
  fileOf: Map<string, string>;
}

const RECORD_FILE = /^(clusters|platform_components|namespaces|rolebindings)\/(.+)\.ya?ml$/;

/** Where a path sits in the layout: a record file, or undefined for files the service ignores. */
export function recordFileLocation(path: string): { collection: Collection; name: string } | undefined {
  const match = RECORD_FILE.exec(path);
  if (!match) return undefined;
  return { collection: match[1] as Collection, name: match[2]! };
}

/** The file a record of `collection` with `id` is written to by the service. */
export function recordFilePath(collection: Collection, id: string): string {
  return `${collection}/${id}.yaml`;
}

export function emptyRecordSets(): RecordSets {
  return { clusters: [], platform_components: [], namespaces: [], rolebindings: [] };
}

export interface ParsedRecordFile {
  collection: Collection;
  record?: RecordSets[Collection][number];
  problems: Problem[];
}

/** Parses and checks one record file. The id comes from the file name when the file leaves it out. */
export function parseRecordFile(file: ConfigFile): ParsedRecordFile | undefined {
  const location = recordFileLocation(file.path);
  if (!location) return undefined;
  const { collection, name } = location;
  const problem = (message: string, extra: Partial<Problem> = {}): ParsedRecordFile => ({
    collection,
    problems: [{ file: file.path, path: '', message, ...extra }],
  });

  if (name.includes('/')) {
    return problem(`records must sit directly in ${collection}/, not in a subfolder`);
  }
  let document: unknown;
  try {
    document = file.text.trim() === '' ? undefined : load(file.text, { filename: file.path });
  } catch (error) {
    if (error instanceof YAMLException) {
      return problem(`YAML syntax error: ${error.reason}`, {
        line: error.mark ? error.mark.line + 1 : undefined,
        column: error.mark ? error.mark.column + 1 : undefined,
      });
    }
    return problem(`cannot be read as YAML: ${(error as Error).message}`);
  }
  if (document === undefined || document === null) return problem('the file is empty; it must hold one record');
  if (typeof document !== 'object' || Array.isArray(document)) {
    return problem('must be a YAML mapping of field names to values (one record per file)');
  }

  const withId = document as Record<string, unknown>;
  if (withId.id === undefined) {
    withId.id = name;
  } else if (withId.id !== name) {
    return problem(`id "${String(withId.id)}" does not match the file name; it must be "${name}" (or be left out)`, {
      path: '/id',
    });
  }
  // The document was parsed just above and is not kept: no need to copy it.
  const result = validateRecord(collection, withId, { inPlace: true });
  if (!result.ok) {
    return { collection, problems: result.problems.map((p) => ({ ...p, file: file.path })) };
  }
  return { collection, record: result.record, problems: [] };
}

/**
 * Parses every record file of a repo; files outside the layout are ignored. `parse` lets a
 * caller that reloads often reuse the result for files whose text did not change.
 */
export function parseConfigRepo(
  files: Iterable<ConfigFile>,
  parse: (file: ConfigFile) => ParsedRecordFile | undefined = parseRecordFile,
): ParsedConfigRepo {
  const records = emptyRecordSets();
  const problems: Problem[] = [];
  const fileOf = new Map<string, string>();
  for (const file of files) {
    const parsed = parse(file);
    if (!parsed) continue;
    problems.push(...parsed.problems);
    if (!parsed.record) continue;
    const key = `${parsed.collection}/${parsed.record.id}`;
    const existing = fileOf.get(key);
    if (existing) {
      problems.push({ file: file.path, path: '', message: `defines ${key} a second time (also in ${existing})` });
      continue;
    }
    fileOf.set(key, file.path);
    (records[parsed.collection] as RecordSets[Collection][number][]).push(parsed.record);
  }
  return { records, problems, fileOf };
}

/** Points problems found on records ("clusters/<id>/...") at the file that holds the record. */
export function attachFiles(problems: Problem[], fileOf: Map<string, string>): Problem[] {
  return problems.map((p) => {
    if (p.file) return p;
    const [collection, id, ...rest] = p.path.split('/');
    const file = fileOf.get(`${collection}/${id}`);
    return file ? { ...p, file, path: rest.length ? `/${rest.join('/')}` : '' } : p;
  });
}

export { COLLECTIONS };
