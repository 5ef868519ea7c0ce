// After a change set was refused with 412 (a record changed since it was read): which records
// of the set changed, and how, read again from REST; and the set re-based onto them.
import type { ApiClient } from '../api/client.ts';
import { fetchRecord } from '../api/endpoints.ts';
import type { Collection } from '../api/types.ts';
import type { ChangeSet } from './change-set.ts';
import { diffRecords, type FieldDifference } from './record-diff.ts';
import { type AnyRecord, describeEdit } from './record-edits.ts';

export interface Conflict {
  collection: Collection;
  id: string;
  /** Null: the record was deleted meanwhile. */
  current: AnyRecord | null;
  etag: string | null;
  /** What changed between the version the edits were made on and the current one. */
  differences: FieldDifference[];
}

/** The records of the set whose stored version is no longer the one its edits were made on. */
export async function findConflicts(client: ApiClient, set: ChangeSet): Promise<Conflict[]> {
  const checks = set.records
    .filter((pending) => pending.base !== null)
    .map(async (pending): Promise<Conflict | undefined> => {
      const answer = await fetchRecord(client, pending.collection, pending.id, true);
      if (answer.kind === 'missing')
        return {
          collection: pending.collection,
          id: pending.id,
          current: null,
          etag: null,
          differences: [{ field: '(record)', before: pending.base }],
        };
      if (answer.kind !== 'record' || answer.etag === pending.etag) return undefined;
      return {
        collection: pending.collection,
        id: pending.id,
        current: answer.record,
        etag: answer.etag,
        differences: diffRecords(pending.base, answer.record),
      };
    });
  return (await Promise.all(checks)).filter((conflict): conflict is Conflict => conflict !== undefined);
}

/**
 * The set with each conflicting record's edits applied again to its current version; the edits that no longer apply, in
 * words.
 */
export function rebaseAll(set: ChangeSet, conflicts: readonly Conflict[]): { set: ChangeSet; dropped: string[] } {
  const dropped: string[] = [];
  let next = set;
  for (const conflict of conflicts) {
    const result = next.rebase(conflict.collection, conflict.id, conflict.current, conflict.etag);
    next = result.set;
    dropped.push(...result.skipped.map((op) => `${conflict.collection}/${conflict.id}: ${describeEdit(op)}`));
  }
  return { set: next, dropped };
}
