// What one write works with and answers with: the objects the runner hands to its writes
// (./write-attempts.ts tries a write with them), what a caller may ask of a write (a dry run),
// and what a stored write tells its caller.
import type { Logger } from 'pino';
import type { ReceiverHosts } from '../../domain/receiver-hosts.ts';
import type { AppliedChangeSet } from '../../domain/writes/change-set.ts';
import type { Backend } from '../backend.ts';
import type { Publication } from '../runner/publication.ts';
import type { PublishedRevision } from '../runner/published-revision.ts';
import type { Reloads } from '../runner/reloads.ts';
import type { SerialQueue } from '../runner/serial-queue.ts';
import type { WriterTurns } from './writer-turns.ts';

/** What a write that was stored (or, in a dry run, would be) answers with. */
export interface WriteResult {
  applied: AppliedChangeSet;
  /** The served revision the set was applied to. */
  base: PublishedRevision;
  revisionBefore: string;
  /** The revision that holds the change; null in a dry run, which stores nothing. */
  revisionAfter: string | null;
}

export interface WriteOptions {
  /** Apply and judge, answer as the write would, store nothing. */
  dryRun?: boolean;
  /**
   * false, in a dry run only: a set the shrink guard refuses is applied all the same (a preview shows the guard's
   * verdict).
   */
  shrinkGuard?: boolean;
}

/**
 * What a write works with: the objects the runner made and hands to its writes, none of them
 * the runner itself. Reloads and writes share the queue and the one Publication.
 */
export interface WritePath {
  backend: Backend;
  log: Logger;
  /** The runner's queue of loads and writes: every turn of a write runs in it. */
  queue: SerialQueue;
  /** WRITE_TIMEOUT: how long after its first attempt a write whose store keeps moving stops trying. */
  writeTimeoutMs: number;
  /** Kept for all the runner's writes: when to leave room for another writer. */
  turns: WriterTurns;
  /** The writes are stopping: a write waiting between turns gives up. */
  stopped(): boolean;
  /** What is published and refused, and the one way to publish. */
  publication: Publication;
  /** Loads the store's newest revision within a turn. */
  reloads: Pick<Reloads, 'loadNow'>;
  /** RECEIVER_HOSTS: what a cluster's receiver_url may name. */
  receiverHosts?: ReceiverHosts;
}
