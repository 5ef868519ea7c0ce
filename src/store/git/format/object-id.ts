// A Git object's id: the SHA-1 of its type, its length and its content.
import { createHash } from 'node:crypto';

export type ObjectType = 'blob' | 'tree' | 'commit';

/** The object id of content of this type. */
export function objectId(type: ObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}
