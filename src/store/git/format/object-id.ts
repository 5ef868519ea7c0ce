// A Git object's id: the SHA-1 of its type, its length and its content.
import { createHash } from 'node:crypto';

export type ObjectType = 'blob' | 'tree' | 'commit';

/** What Git puts before an object's content, in its id's hash and in its file: "<type> <length>\0". */
export function objectHeader(type: ObjectType, length: number): string {
  return `${type} ${length}\0`;
}

/** The object id of content of this type. */
export function objectId(type: ObjectType, content: Buffer): string {
  return createHash('sha1').update(objectHeader(type, content.length)).update(content).digest('hex');
}
