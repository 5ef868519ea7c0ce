// The config repo layout: clusters/<id>.yaml, platform_components/<id>.yaml,
// namespaces/<id>.yaml, rolebindings/<id>.yaml, rollouts/<id>.yaml, one record per file (.yml
// works too). Every other file of the repository is not the service's business.
import { type Collection, COLLECTIONS } from '../records.ts';

const RECORD_FILE = new RegExp(`^(${COLLECTIONS.join('|')})/(.+)\\.ya?ml$`);

export interface RecordFileLocation {
  collection: Collection;
  /** The file name without its extension: the record's id. */
  name: string;
}

/** Where a path sits in the layout: a record file, or undefined for files the service ignores. */
export function recordFileLocation(path: string): RecordFileLocation | undefined {
  const match = RECORD_FILE.exec(path);
  if (!match) return undefined;
  return { collection: match[1] as Collection, name: match[2] };
}

/** The file a new record of `collection` with `id` is written to. */
export function recordFilePath(collection: Collection, id: string): string {
  return `${collection}/${id}.yaml`;
}

/** The folders that hold records. */
export const RECORD_FOLDERS: readonly Collection[] = COLLECTIONS;

/** Whether a file in a record folder is one the service reads (by its name). */
export function isRecordFileName(name: string): boolean {
  return /\.ya?ml$/.test(name);
}
