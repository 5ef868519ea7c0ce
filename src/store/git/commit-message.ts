import type { RecordChange } from '../backend.ts';
import type { CommitAuthor } from './commit-builder.ts';

/** "<collection>: <action> <id>", then the fields the write changed: how every REST write reads in `git log`. */
export function commitMessage(change: Pick<RecordChange, 'collection' | 'action' | 'id' | 'changedFields'>): string {
  return `${change.collection}: ${change.action} ${change.id}\n\nChanged fields: ${change.changedFields.join(', ')}\n`;
}

/**
 * The author of the commit of `change` when it is not the service: a person who wrote through
 * the API is the author (name and e-mail from their issuer's token; no e-mail when it vouched
 * for none) and the service its committer. A shared token's writes stay the service's own.
 */
export function commitAuthor(change: Pick<RecordChange, 'who'>): CommitAuthor | undefined {
  return change.who.kind === 'person' ? { name: change.who.name, email: change.who.email ?? '' } : undefined;
}
