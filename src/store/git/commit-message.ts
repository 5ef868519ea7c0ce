import { hostname } from 'node:os';
import type { ChangeSet } from '../backend.ts';
import type { CommitAuthor } from './commit-builder.ts';

/** The trailer that names the instance of the service that made a commit. */
export const WRITER_TRAILER = 'Gitops-Writer';

/**
 * The change set's message (../change-set-message.ts). With `writer`, a last paragraph
 * `Gitops-Writer: <writer>` names the instance that made it (git reads it as a trailer), so
 * that another instance pushing to the same branch can tell it is not alone.
 */
export function commitMessage(set: Pick<ChangeSet, 'message'>, writer?: string): string {
  return writer === undefined ? set.message : `${set.message}\n${WRITER_TRAILER}: ${writer}\n`;
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
 * The author of the commit of a change set when it is not the service: a person who wrote through
 * the API is the author (name and e-mail from their issuer's token; no e-mail when it vouched
 * for none) and the service its committer. A shared token's writes stay the service's own.
 */
export function commitAuthor(set: Pick<ChangeSet, 'who'>): CommitAuthor | undefined {
  return set.who.kind === 'person' ? { name: set.who.name, email: set.who.email ?? '' } : undefined;
}
