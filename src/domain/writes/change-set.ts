// A change set: several writes applied in order to one revision and stored as one commit, all
// or nothing. Pure, like a single write (a single REST write is a change set of one), so every
// backend accepts and refuses the same sets.
//
// Each write is applied to what the writes before it made, and checked there for what it
// alone decides (./staged-write.ts: id, existence, If-Match, schema). What the writes do to
// one another and to the rest of the revision is judged once, on the revision the whole set
// makes, against the one it started from (./write-rules.ts), so a namespace created after the
// cluster that references it is fine, and only problems the set introduces refuse it. A set
// of several writes is also held to the shrink guard, as a commit of several files would be
// when the service reads it again after a restart; the trailer that allows a mass shrink in a
// commit's message allows it in the set's message.
//
// A refusal names the write it is about by its index, counted from 0: the write that failed,
// or, for a problem found on the whole revision, the last write to the record it is about.
import { allowsShrink, shrinkGuard } from '../judge.ts';
import { recordName, type RecordKey } from '../problem.ts';
import type { AnyRecord } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';
import { changedTopLevelFields, stageWrite } from './staged-write.ts';
import { recordChangeRefusal } from './write-rules.ts';
import type { AppliedWrite, Role, WriteAuthor, WriteRefusal, WriteRequest } from './write-request.ts';

/** The most writes one change set may hold. */
export const MAX_CHANGE_SET_WRITES = 1000;

export interface ChangeSetRequest {
  /** The commit message; without one, a message made from the changes. */
  message?: string;
  /** Applied in this order. */
  writes: WriteRequest[];
  /** The role the request was made with, as each write carries it. */
  role: Role;
  /** Who made the set, as each write names them. */
  who: WriteAuthor;
}

/** What a change set did to one record, from the revision it started from to the one it made. */
export type ChangedRecord = Pick<AppliedWrite, 'action' | 'collection' | 'id' | 'record' | 'previous' | 'changedFields'>;

/** A refused set: why, and which write (counted from 0). */
export type ChangeSetRefusal = WriteRefusal & { index: number };

export type ChangeSetResult =
  | {
      ok: true;
      /** The revision after the set (still under the base's revision id until it is stored). */
      snapshot: Snapshot;
      /** Each write as it was applied, one per write, in order. */
      applied: AppliedWrite[];
      /** Every record a write named, once, in the order they were first written. */
      touched: RecordKey[];
      /** The records whose stored form changes, in the order they were first written: what a backend stores. */
      changes: ChangedRecord[];
      /** Nothing changes (every write left its record as it was, or a later one put it back): nothing is stored. */
      unchanged: boolean;
    }
  | { ok: false; refusal: ChangeSetRefusal };

/** A change set that was accepted. */
export type AppliedChangeSet = Extract<ChangeSetResult, { ok: true }>;

export interface ApplyOptions {
  /**
   * false: a set the shrink guard would refuse is applied all the same, so that a preview can
   * show what it would do and the guard's verdict on it. Never for a set that is stored.
   */
  shrinkGuard?: boolean;
}

/**
 * Whether a mass shrink is meant: a single write is never held to the guard (it empties one
 * cluster at most); several writes are, unless the set's message carries the trailer.
 */
export function changeSetAllowsShrink(request: Pick<ChangeSetRequest, 'message' | 'writes'>): boolean {
  return request.writes.length <= 1 || allowsShrink(request.message ?? '');
}

export function applyChangeSet(snapshot: Snapshot, request: ChangeSetRequest, options: ApplyOptions = {}): ChangeSetResult {
  const applied: AppliedWrite[] = [];
  /** "collection/id" -> the record before the set (undefined: it did not exist), the last write to it. */
  const touched = new Map<string, { key: RecordKey; previous: AnyRecord | undefined; last: number }>();
  let current = snapshot;
  for (const [index, write] of request.writes.entries()) {
    const outcome = stageWrite(current, write);
    if (!outcome.ok) return { ok: false, refusal: { ...outcome.refusal, index } };
    const step = outcome.applied;
    const name = recordName(step);
    const seen = touched.get(name);
    if (seen) seen.last = index;
    else touched.set(name, { key: { collection: step.collection, id: step.id }, previous: step.previous, last: index });
    applied.push(step);
    current = step.snapshot;
  }

  // Judged in the order of each record's last write, so the refusal names the earliest write
  // after which the revision could not have been fixed by the set any more.
  const byLastWrite = [...touched.values()].sort((a, b) => a.last - b.last);
  for (const { key, previous, last } of byLastWrite) {
    if (sameRecord(previous, current[key.collection].get(key.id) as AnyRecord | undefined)) continue;
    const refusal = recordChangeRefusal(snapshot, current, key.collection, key.id, previous);
    if (refusal) return { ok: false, refusal: { ...refusal, index: last } };
  }

  const changes = changedRecords([...touched.values()], current);
  if (changes.length === 0) return { ok: true, snapshot, applied, touched: keysOf(touched), changes, unchanged: true };
  if (options.shrinkGuard !== false && !changeSetAllowsShrink(request)) {
    const guard = shrinkGuard(current, snapshot);
    if (guard.length > 0) {
      const message = guard.map((p) => p.message).join('; ');
      return { ok: false, refusal: { reason: 'invalid', message: `the change set would shrink the fleet: ${message}`, problems: guard, index: request.writes.length - 1 } };
    }
  }
  return { ok: true, snapshot: current, applied, touched: keysOf(touched), changes, unchanged: false };
}

function keysOf(touched: Map<string, { key: RecordKey }>): RecordKey[] {
  return [...touched.values()].map((t) => t.key);
}

function changedRecords(touched: { key: RecordKey; previous: AnyRecord | undefined }[], after: Snapshot): ChangedRecord[] {
  const changes: ChangedRecord[] = [];
  for (const { key, previous } of touched) {
    const record = (after[key.collection].get(key.id) as AnyRecord | undefined) ?? null;
    if (sameRecord(previous, record ?? undefined)) continue;
    const { collection, id } = key;
    if (record === null) changes.push({ action: 'delete', collection, id, record, previous, changedFields: Object.keys(previous!) });
    else if (previous === undefined) changes.push({ action: 'create', collection, id, record, previous, changedFields: Object.keys(record) });
    else changes.push({ action: 'update', collection, id, record, previous, changedFields: changedTopLevelFields(previous, record) });
  }
  return changes;
}

/** Both absent, or the same content (a record written and then put back as it was). */
function sameRecord(a: AnyRecord | undefined, b: AnyRecord | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return changedTopLevelFields(a, b).length === 0;
}
