import { hostname } from 'node:os';
import type { RecordChange } from '../backend.ts';
import type { CommitAuthor } from './commit-builder.ts';

/** The trailer that names the instance of the service that made a commit. */
export const WRITER_TRAILER = 'Gitops-Writer';

/**
 * "<collection>: <action> <id>", then the fields the write changed: how every REST write reads
 * in `git log`. With `writer`, a last paragraph `Gitops-Writer: <writer>` names the instance
 * that made it (git reads it as a trailer), so that another instance pushing to the same
 * branch can tell it is not alone.
 */
export function commitMessage(change: Pick<RecordChange, 'collection' | 'action' | 'id' | 'changedFields'>, writer?: string): string {
  const message = `${change.collection}: ${change.action} ${change.id}\n\nChanged fields: ${change.changedFields.join(', ')}\n`;
  return writer === undefined ? message : `${message}\n${WRITER_TRAILER}: ${writer}\n`;
}

/**
 * This process as its commits name it: the host (a pod's name in Kubernetes, a container's
 * id elsewhere) and the process id, which tells apart two instances on one host.
 */
export function ownWriterId(): string {
  return `${hostname()}/${process.pid}`;
}

/** The instance a commit message names in its Gitops-Writer trailer, if any. */
export function writerOf(message: string): string | undefined {
  const prefix = `${WRITER_TRAILER.toLowerCase()}:`;
  let writer: string | undefined;
  for (const line of message.split('\n')) {
    if (line.toLowerCase().startsWith(prefix)) writer = line.slice(prefix.length).trim() || undefined;
  }
  return writer;
}

/**
 * The author of the commit of `change` when it is not the service: a person who wrote through
 * the API is the author (name and e-mail from their issuer's token; no e-mail when it vouched
 * for none) and the service its committer. A shared token's writes stay the service's own.
 */
export function commitAuthor(change: Pick<RecordChange, 'who'>): CommitAuthor | undefined {
  return change.who.kind === 'person' ? { name: change.who.name, email: change.who.email ?? '' } : undefined;
}
