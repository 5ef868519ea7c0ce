// Encoded response bodies kept across revisions. A new revision usually changes a few records
// of a large fleet; every other cluster's response is the same document, so its bytes, ETag
// and gzip copy are reused instead of being encoded again on its next poll. The per-cluster
// answers are kept compactly with the records they were made from (./answer-store.ts); the
// fleet listings, a few, as EncodedBody objects while the clusters map is the same.
import type { Cluster } from '../domain/records.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import { PlainBytesBudget } from './plain-bytes-budget.ts';
import { encodeInputsDocument, type EncodedDocument } from './encoded-body.ts';
import { AnswerStore } from './answer-store.ts';

/**
 * Fleet listings kept per filter. Each distinct filter (environment, shard i/n) is an entry,
 * so a client walking through shard counts could add thousands; past this many the oldest go.
 */
export const MAX_LISTS = 256;

/**
 * Plain bytes kept for clients that do not take gzip: enough for every response of about 1,500
 * clusters. The gzip copies, which the fleet's agents ask for, are all kept.
 */
export const PLAIN_BODY_BUDGET_BYTES = 16 * 1024 * 1024;

export class EncodedBodyCache {
  /** Fleet listings by filter key, valid for the clusters map they were made from. */
  #lists = new Map<string, EncodedDocument>();
  #listsOf: ReadonlyMap<string, Cluster> | undefined;
  readonly plainBodies: PlainBytesBudget;
  /** The per-cluster answers. */
  readonly answers: AnswerStore;

  constructor(plainBudgetBytes = PLAIN_BODY_BUDGET_BYTES) {
    this.plainBodies = new PlainBytesBudget(plainBudgetBytes);
    this.answers = new AnswerStore(this.plainBodies);
  }

  /** Called when a table starts serving a snapshot: its serial for the answer store (see AnswerStore.follow). */
  follow(snapshot: Snapshot): number {
    return this.answers.follow(snapshot);
  }

  /** A fleet listing; kept while the clusters map is the same object (no cluster added, removed or changed). */
  list(snapshot: Snapshot, filterKey: string, make: () => unknown[]): EncodedDocument {
    if (this.#listsOf !== snapshot.clusters) {
      this.#lists = new Map();
      this.#listsOf = snapshot.clusters;
    }
    let encoded = this.#lists.get(filterKey);
    if (!encoded) {
      encoded = encodeInputsDocument(make(), this.plainBodies);
      if (this.#lists.size >= MAX_LISTS) this.#lists.delete(this.#lists.keys().next().value!);
      this.#lists.set(filterKey, encoded);
    }
    return encoded;
  }
}
