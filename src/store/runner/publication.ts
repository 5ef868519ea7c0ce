// What is published, and the one way a revision becomes published — whether a reload or a
// write brought it: the step before publishing (./before-publish.ts), the swap in one
// assignment, the listeners told (./store-events.ts), the history of revisions told
// (../history/revision-history.ts), and what a restart needs kept (../history/start-history.ts).
// Reloads and writes are both handed this one object; neither reaches into the runner.
import type { Logger } from 'pino';
import type { Problem } from '../../domain/problem.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { Backend, ChangeSet, RevisionFacts } from '../backend.ts';
import { keepForRestart, retiredOnPublish, type StartHistory } from '../history/start-history.ts';
import { writeFacts } from '../history/history-bounds.ts';
import type { RevisionHistory } from '../history/revision-history.ts';
import { type BeforePublish, waitBeforePublish } from './before-publish.ts';
import type { PublishedRevision } from './published-revision.ts';
import type { StoreEvents } from './store-events.ts';
import type { LoadReport } from './store-status.ts';

/** The newest revision the store holds, refused: no writes while it stands. */
export interface RefusedRevision {
  revision: string;
  error: string;
  problems: Problem[];
}

export class Publication {
  readonly #backend: Backend;
  readonly #log: Logger;
  readonly #events: StoreEvents;
  readonly history: RevisionHistory;
  #published: PublishedRevision | undefined;
  #refused: RefusedRevision | undefined;
  #lastLoad: LoadReport | undefined;
  #beforePublish: BeforePublish | undefined;
  /** What the first revision of this process is judged against (found once, at its first load). */
  start: StartHistory | undefined;

  constructor(backend: Backend, log: Logger, events: StoreEvents, history: RevisionHistory) {
    this.#backend = backend;
    this.#log = log;
    this.#events = events;
    this.history = history;
  }

  published(): PublishedRevision | undefined {
    return this.#published;
  }

  /** The revision the store holds and this process refused, if any: no writes then. */
  refused(): RefusedRevision | undefined {
    return this.#refused;
  }

  lastLoad(): LoadReport | undefined {
    return this.#lastLoad;
  }

  /** How the last load (or write) ended, for /ready. */
  reportLoad(report: LoadReport): void {
    this.#lastLoad = report;
  }

  /** The newest revision was refused (`revision`), or a later load found it fixed (undefined). */
  setRefused(refused: RefusedRevision | undefined): void {
    this.#refused = refused;
  }

  /** The one step a publication waits for before the new revision is served, bounded (./before-publish.ts). */
  setBeforePublish(step: BeforePublish | undefined): void {
    this.#beforePublish = step;
  }

  /** `facts`: what is known of the revision besides what the store tells (a write's author and message). */
  async publish(revision: Omit<PublishedRevision, 'publishedAt' | 'retired'>, facts?: RevisionFacts): Promise<void> {
    await waitBeforePublish(this.#beforePublish, revision.snapshot.revision, this.#log);
    const previous = this.#published;
    const retired = retiredOnPublish(previous, this.start, revision.snapshot);
    const next = { ...revision, publishedAt: new Date(), retired };
    this.#published = next;
    this.#events.published(next, previous);
    this.history.published(next.snapshot, facts);
  }

  /** What a store with no history of its own needs to judge its first revision after a restart. */
  keepForRestart(snapshot: Snapshot): Promise<void> {
    return keepForRestart(this.#backend, snapshot, this.#log, this.#published?.retired);
  }

  /** A written revision: published with the problems of the one it was written on, its author and message kept. */
  async publishWrite(
    snapshot: Snapshot,
    sources: ReadonlyMap<string, string>,
    base: PublishedRevision,
    set: ChangeSet,
  ): Promise<void> {
    this.#lastLoad = { at: new Date().toISOString(), ok: true, revision: snapshot.revision };
    await this.publish({ snapshot, sources, problems: base.problems }, writeFacts(set));
    await this.keepForRestart(snapshot);
  }
}
