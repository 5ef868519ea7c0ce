// Record ids: 1-250 characters of A-Z a-z 0-9 . _ -, starting and ending with a letter or
// digit. So "<id>.yaml" is always a safe file name within the 255-byte limit (no "/", no
// "..", no leading dot) and the service can never be made to write outside the record
// folders of the config repo. The same on every backend.
import { clusterSchema } from './schema-documents.ts';

export const ID_PATTERN = new RegExp((clusterSchema.definitions.id as { pattern: string }).pattern);

export const MAX_ID_LENGTH = 250;

export const ID_RULE = `1-${MAX_ID_LENGTH} characters of A-Z a-z 0-9 . _ -, starting and ending with a letter or digit`;

export function isValidId(id: string): boolean {
  return id.length <= MAX_ID_LENGTH && ID_PATTERN.test(id);
}

/**
 * The one order of record ids everywhere (maps, listings, files): code-unit order, the same on every machine and
 * locale.
 */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
