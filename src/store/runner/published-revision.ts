// The published revision: what every read is answered from until the next one, and who is
// told when it changes.
import type { Problem } from '../../domain/problem.ts';
import type { Snapshot } from '../../domain/snapshot.ts';

/** A published revision: what every read is answered from until the next one. */
export interface PublishedRevision {
  readonly snapshot: Snapshot;
  /** "collection/id" -> the file the record came from. */
  readonly sources: ReadonlyMap<string, string>;
  readonly publishedAt: Date;
  /** Problems of the revision that did not keep it from being published (warnings). */
  readonly problems: readonly Problem[];
  /**
   * The credential_generation of each cluster an earlier revision deleted and this one does
   * not hold, as far back as this process knows (domain/credential-generations.ts).
   */
  readonly retired: ReadonlyMap<string, number>;
}

export type PublishListener = (next: PublishedRevision, previous: PublishedRevision | undefined) => void;
