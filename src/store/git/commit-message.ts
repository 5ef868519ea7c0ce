import type { Mutation } from '../config-store.ts';

/** "<collection>: <action> <id>", then the fields the write changed: how every REST write reads in `git log`. */
export function commitMessage(mutation: Pick<Mutation, 'collection' | 'action' | 'id'>, changedFields: string[]): string {
  return `${mutation.collection}: ${mutation.action} ${mutation.id}\n\nChanged fields: ${changedFields.join(', ')}\n`;
}
