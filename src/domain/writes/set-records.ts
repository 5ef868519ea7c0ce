// The records as the writes of a change set have left them so far: the revision the set
// started from, and on top of it the records the set wrote (drafts). Each write reads and
// checks against this, not against a revision made after every write: a revision per write
// would copy the written record (and its rules' inputs) for every write, and a set of 1,000
// patches to one record of a megabyte would copy it 1,000 times.
//
// A draft is the set's own: a merge patch changes it in place (./merge-patch.ts,
// mergePatchInto), copying an object a stored record shares before it changes it, once. The
// drafts become stored records — checked whole, in canonical form, frozen — only when the
// set is complete (./change-set.ts).
import { dnsKey } from '../cluster-dns.ts';
import { compareIds } from '../ids.ts';
import { recordName, type RecordKey } from '../problem.ts';
import type { AnyRecord, Collection } from '../records.ts';
import { caseTwins } from '../rules/portable-ids.ts';
import type { Snapshot } from '../snapshot.ts';

/** A record as the set's writes leave it: a plain object, not yet in canonical form. */
export type DraftRecord = Record<string, unknown>;

export interface Draft {
  key: RecordKey;
  /** The record in the revision the set started from; undefined when it was not there. */
  previous: AnyRecord | undefined;
  /** The record now; null once deleted. */
  record: DraftRecord | null;
  /** The index of the last write to it. */
  last: number;
}

export class SetRecords {
  /** The revision the set is applied to. */
  readonly base: Snapshot;
  /** Objects the set made and may change in place. */
  readonly owned = new WeakSet<object>();
  /** By "collection/id", in the order first written. */
  readonly #drafts = new Map<string, Draft>();
  /** dnsKey -> the cluster that holds it now, where the set changed that (null: no cluster). */
  readonly #dns = new Map<string, string | null>();
  /** Ids the set made that the base did not have, by collection and lower-case form. */
  readonly #made = new Map<Collection, Map<string, Set<string>>>();

  constructor(base: Snapshot) {
    this.base = base;
  }

  get(collection: Collection, id: string): DraftRecord | undefined {
    const draft = this.#drafts.get(recordName({ collection, id }));
    if (draft) return draft.record ?? undefined;
    return this.base[collection].get(id) as DraftRecord | undefined;
  }

  has(collection: Collection, id: string): boolean {
    return this.get(collection, id) !== undefined;
  }

  /** The record `id` is now `record` (null: deleted), by write `index`. */
  set(collection: Collection, id: string, record: DraftRecord | null, index: number): void {
    const name = recordName({ collection, id });
    const before = this.get(collection, id);
    if (collection === 'clusters') this.#moveDns(id, before, record);
    if (record !== null && !this.base[collection].has(id)) this.#noteMade(collection, id);
    const draft = this.#drafts.get(name);
    if (draft) {
      draft.record = record;
      draft.last = index;
    } else {
      this.#drafts.set(name, {
        key: { collection, id },
        previous: this.base[collection].get(id),
        record,
        last: index,
      });
    }
  }

  /** The cluster that holds a DNS name now (by its dnsKey). */
  dnsHolder(key: string): string | undefined {
    if (this.#dns.has(key)) return this.#dns.get(key) ?? undefined;
    return this.base.clustersByDns.get(key)?.id;
  }

  /** An id of the collection as it is now, other than `id`, that differs from it only in case. */
  caseTwin(collection: Collection, id: string): string | undefined {
    const folded = id.toLowerCase();
    const made = [...(this.#made.get(collection)?.get(folded) ?? [])].sort(compareIds);
    const twins = [...caseTwins(this.base[collection], id), ...made];
    return twins.find((other) => other !== id && this.has(collection, other));
  }

  /** Every record the set wrote, in the order first written. */
  drafts(): IterableIterator<Draft> {
    return this.#drafts.values();
  }

  #moveDns(id: string, before: DraftRecord | undefined, after: DraftRecord | null): void {
    const from = before === undefined ? undefined : dnsKey(before.cluster_dns as string);
    const to = after === null ? undefined : dnsKey(after.cluster_dns as string);
    if (from === to) return;
    if (from !== undefined && this.dnsHolder(from) === id) this.#dns.set(from, null);
    if (to !== undefined) this.#dns.set(to, id);
  }

  #noteMade(collection: Collection, id: string): void {
    let byFolded = this.#made.get(collection);
    if (!byFolded) this.#made.set(collection, (byFolded = new Map<string, Set<string>>()));
    const folded = id.toLowerCase();
    let ids = byFolded.get(folded);
    if (!ids) byFolded.set(folded, (ids = new Set()));
    ids.add(id);
  }
}
