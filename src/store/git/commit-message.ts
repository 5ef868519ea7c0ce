import type { RecordChange } from '../backend.ts';

/** "<collection>: <action> <id>", then the fields the write changed: how every REST write reads in `git log`. */
export function commitMessage(change: Pick<RecordChange, 'collection' | 'action' | 'id' | 'changedFields'>): string {
  return `${change.collection}: ${change.action} ${change.id}\n\nChanged fields: ${change.changedFields.join(', ')}\n`;
}
