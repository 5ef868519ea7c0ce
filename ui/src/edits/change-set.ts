// The one change set a person gathers across records before committing it: for each record,
// the version the edits were made on (with its ETag) and the edits. It becomes the body of
// POST /api/v2/gitops/changes (and of its preview): one write per record, each carrying the
// ETag it was based on, so that a record someone else changed meanwhile refuses the whole set
// (412) rather than be overwritten. Pure and immutable: each change makes a new set, which the
// page keeps (./use-change-set.ts).
import type { ChangeRequest, ChangeWrite, Collection } from '../api/types.ts';
import { mergePatch } from './merge-patch.ts';
import { type AnyRecord, applyEdits, clone, editKey, type EditOp, sameJson } from './record-edits.ts';

export interface PendingRecord {
  collection: Collection;
  id: string;
  /** The record as read when the first edit was made; null for a record the set creates. */
  base: AnyRecord | null;
  /** Its ETag as the REST GET returned it; null for a new record. */
  etag: string | null;
  ops: EditOp[];
}

export function recordKey(collection: Collection, id: string): string {
  return `${collection}/${id}`;
}

export class ChangeSet {
  readonly records: readonly PendingRecord[];

  constructor(records: readonly PendingRecord[] = []) {
    this.records = records;
  }

  get size(): number {
    return this.records.length;
  }

  find(collection: Collection, id: string): PendingRecord | undefined {
    return this.records.find((r) => r.collection === collection && r.id === id);
  }

  /** The record as the set would leave it; `stored` when the set does not change it. */
  current<R extends AnyRecord>(collection: Collection, id: string, stored: R): R | null {
    const pending = this.find(collection, id);
    return pending ? (applyEdits(pending.base, pending.ops).record as R | null) : stored;
  }

  /**
   * The set with one more edit of a record. `base` and `etag` are the record as the page read
   * it; they are kept from the first edit on, so every later edit builds on the same version.
   * An edit that leaves the record as it was removes it from the set.
   */
  edit(collection: Collection, id: string, base: AnyRecord | null, etag: string | null, op: EditOp): ChangeSet {
    const pending = this.find(collection, id) ?? {
      collection,
      id,
      base: base === null ? null : clone(base),
      etag,
      ops: [],
    };
    let ops: EditOp[];
    if (op.kind === 'delete' && pending.base === null) {
      // Deleting a record this set creates: as if it had never been.
      return this.without(collection, id);
    }
    if (op.kind === 'delete') ops = [op];
    else ops = [...pending.ops.filter((o) => editKey(o) !== editKey(op)), op];
    if (pending.base !== null) ops = withoutNoOps(pending.base, ops);
    const next: PendingRecord = { ...pending, ops };
    const unchanged = pending.base !== null && sameJson(applyEdits(pending.base, ops).record, pending.base);
    return this.replace(collection, id, unchanged || ops.length === 0 ? undefined : next);
  }

  without(collection: Collection, id: string): ChangeSet {
    return this.replace(collection, id, undefined);
  }

  /**
   * The set with a record's edits applied again to its newer version (another change reached
   * it meanwhile). Returns the edits that no longer apply, which are dropped.
   */
  rebase(
    collection: Collection,
    id: string,
    current: AnyRecord | null,
    etag: string | null,
  ): { set: ChangeSet; skipped: EditOp[] } {
    const pending = this.find(collection, id);
    if (!pending) return { set: this, skipped: [] };
    if (current === null) {
      // Deleted meanwhile: edits of it cannot apply; a deletion of it is done already.
      return { set: this.without(collection, id), skipped: pending.ops.filter((op) => op.kind !== 'delete') };
    }
    const { skipped } = applyEdits(current, pending.ops);
    const ops = pending.ops.filter((op) => !skipped.includes(op));
    const next: PendingRecord = { ...pending, base: clone(current), etag, ops };
    const unchanged = sameJson(applyEdits(current, ops).record, current);
    return { set: this.replace(collection, id, unchanged ? undefined : next), skipped };
  }

  /** The body of POST /api/v2/gitops/changes: one write per record, in the order they were first edited. */
  request(message: string): ChangeRequest {
    return { message, writes: this.records.map(writeOf) };
  }

  private replace(collection: Collection, id: string, next: PendingRecord | undefined): ChangeSet {
    const at = this.records.findIndex((r) => r.collection === collection && r.id === id);
    const records = [...this.records];
    if (at === -1 && next) records.push(next);
    else if (at !== -1 && next) records[at] = next;
    else if (at !== -1) records.splice(at, 1);
    return new ChangeSet(records);
  }
}

/** Drops the edits whose absence would leave the same record (a value set back to what the record holds). */
function withoutNoOps(base: AnyRecord, ops: EditOp[]): EditOp[] {
  let kept = ops;
  for (const op of ops) {
    const rest = kept.filter((o) => o !== op);
    if (sameJson(applyEdits(base, rest).record, applyEdits(base, kept).record)) kept = rest;
  }
  return kept;
}

function writeOf(pending: PendingRecord): ChangeWrite {
  const { collection, id } = pending;
  const after = applyEdits(pending.base, pending.ops).record;
  if (pending.base === null) return { op: 'create', collection, id, record: after! };
  const ifMatch = pending.etag === null ? {} : { if_match: pending.etag };
  if (after === null) return { op: 'delete', collection, id, ...ifMatch };
  return {
    op: 'patch',
    collection,
    id,
    patch: mergePatch(pending.base, after),
    ...ifMatch,
  };
}
