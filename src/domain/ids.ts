// Record ids: 1-253 characters of A-Z a-z 0-9 . _ -, starting and ending with a letter or
// digit. So an id is always a safe file name (no "/", no "..", no leading dot) and the
// service can never be made to write outside the record folders of the config repo.
import clusterSchema from '../../schemas/cluster.schema.json' with { type: 'json' };

export const ID_PATTERN = new RegExp((clusterSchema.definitions.id as { pattern: string }).pattern);

export const ID_RULE = '1-253 characters of A-Z a-z 0-9 . _ -, starting and ending with a letter or digit';

export function isValidId(id: string): boolean {
  return id.length <= 253 && ID_PATTERN.test(id);
}
