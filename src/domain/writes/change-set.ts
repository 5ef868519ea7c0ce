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
//
// The work grows with the set, not with the set times the records it writes: the writes build
// drafts of their records (./set-records.ts) and the revision is made once, from the drafts,
// each checked whole once; and it comes in steps (../steps.ts), so that the store lets
// requests in while a set of 1,000 writes is judged.
import { allowsShrink, shrinkGuard } from '../judge.ts';
import type { RecordKey } from '../problem.ts';
import type { AnyRecord, Collection, DefinitionCollection } from '../records.ts';
import { analyzeFleetInSteps, validateRecord } from '../rules/index.ts';
import { clusterPartsInSteps, definitionGrew } from '../rules/response-size.ts';
import { REFERENCE_FIELDS } from '../rules/uniqueness.ts';
import { deepFreeze, type Snapshot, withRecordsInSteps } from '../snapshot.ts';
import { runSteps, type Steps } from '../steps.ts';
import { recordEtag } from './record-etag.ts';
import { type Draft, SetRecords } from './set-records.ts';
import { changedTopLevelFields, stageWrite } from './staged-write.ts';
import type { ReceiverHosts } from '../receiver-hosts.ts';
import { invalidRecord, recordChangeRefusal } from './write-rules.ts';
import type { AppliedWrite, Role, WriteAuthor, WriteRefusal, WriteRequest } from './write-request.ts';

/** The most writes one change set may hold. */
export const MAX_CHANGE_SET_WRITES = 1000;

/**
 * The longest commit message a change set may give (its `message`, a REST write's
 * Gitops-Commit-Message header), in UTF-8 bytes: several screens of text. Every message is
 * kept in the store's history, written to the audit line of each record, and sent to the
 * replicas; a megabyte of it would be copied into each.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024;

/** Why a commit message is too long to take, or undefined. */
export function messageLengthProblem(message: string): string | undefined {
  let bytes = 0;
  for (let i = 0; i < message.length; i++) {
    const code = message.charCodeAt(i);
    // A surrogate pair is 4 bytes in UTF-8: 2 for each half.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code < 0xe000) ? 2 : 3;
  }
  return bytes > MAX_MESSAGE_BYTES ? `must be at most ${MAX_MESSAGE_BYTES} bytes of UTF-8 (it is ${bytes})` : undefined;
}

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
export type ChangedRecord = Pick<
  AppliedWrite,
  'action' | 'collection' | 'id' | 'record' | 'previous' | 'changedFields'
>;

/** A refused set: why, and which write (counted from 0). */
export type ChangeSetRefusal = WriteRefusal & { index: number };

export type ChangeSetResult =
  | {
      ok: true;
      /** The revision after the set (still under the base's revision id until it is stored). */
      snapshot: Snapshot;
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
  /** RECEIVER_HOSTS: what a cluster's receiver_url may name (./write-rules.ts); undefined: receivers are off. */
  receiverHosts?: ReceiverHosts;
}

/**
 * Whether a mass shrink is meant: a single write is never held to the guard (it empties one
 * cluster at most); several writes are, unless the set's message carries the trailer.
 */
export function changeSetAllowsShrink(request: Pick<ChangeSetRequest, 'message' | 'writes'>): boolean {
  return request.writes.length <= 1 || allowsShrink(request.message ?? '');
}

export function applyChangeSet(
  snapshot: Snapshot,
  request: ChangeSetRequest,
  options: ApplyOptions = {},
): ChangeSetResult {
  return runSteps(changeSetSteps(snapshot, request, options));
}

/** applyChangeSet in steps: a pause after each write, and after each record made and judged. */
export function* changeSetSteps(
  snapshot: Snapshot,
  request: ChangeSetRequest,
  options: ApplyOptions = {},
): Steps<ChangeSetResult> {
  const records = new SetRecords(snapshot);
  for (const [index, write] of request.writes.entries()) {
    const refusal = stageWrite(records, write, index);
    if (refusal) return { ok: false, refusal: { ...refusal, index } };
    yield;
  }
  const drafts = [...records.drafts()];
  const touched = drafts.map((draft) => draft.key);

  // Each record as the set leaves it, whole and in canonical form: what is stored must pass
  // its schema as a file would, whatever the writes' own checks let through.
  const changed: { draft: Draft; change: ChangedRecord }[] = [];
  for (const draft of drafts) {
    const outcome = yield* finalRecord(draft);
    if ('refusal' in outcome) return { ok: false, refusal: { ...outcome.refusal, index: draft.last } };
    if (outcome.change) changed.push({ draft, change: outcome.change });
    yield;
  }
  if (changed.length === 0) return { ok: true, snapshot, touched, changes: [], unchanged: true };
  // The writes' own checks keep a DNS name or a reference from being taken twice: this cannot refuse.
  const built = yield* withRecordsInSteps(
    snapshot,
    changed.map((c) => c.change),
    snapshot.revision,
  );
  if (!built.ok) {
    const on = built.problems[0].at.record!;
    const draft =
      changed.find((c) => c.change.collection === on.collection && c.change.id === on.id)?.draft ??
      changed.at(-1)!.draft;
    return { ok: false, refusal: { ...invalidRecord(on.collection, on.id, built.problems), index: draft.last } };
  }
  const after = built.snapshot;
  yield;

  // Judged in the order of each record's last write, so the refusal names the earliest write
  // after which the revision could not have been fixed by the set any more.
  for (const { draft, change } of [...changed].sort((a, b) => a.draft.last - b.draft.last)) {
    const { collection, id, previous } = change;
    // A definition that grew is held against every cluster: their parts worked out in steps first.
    if (isDefinition(collection) && definitionGrew(snapshot, after, collection, id))
      yield* clusterPartsInSteps(after, collection);
    const refusal = recordChangeRefusal(snapshot, after, collection, id, previous, options.receiverHosts);
    if (refusal) return { ok: false, refusal: { ...refusal, index: draft.last } };
    yield;
  }

  const changes = changed.map((c) => c.change);
  if (options.shrinkGuard !== false && !changeSetAllowsShrink(request)) {
    yield* analyzeFleetInSteps(after);
    const guard = shrinkGuard(after, snapshot);
    if (guard.length > 0) {
      const message = guard.map((p) => p.message).join('; ');
      return {
        ok: false,
        refusal: {
          reason: 'invalid',
          message: `the change set would shrink the fleet: ${message}`,
          problems: guard,
          index: request.writes.length - 1,
        },
      };
    }
  }
  return { ok: true, snapshot: after, touched, changes, unchanged: false };
}

/**
 * What the set did to one record (undefined: nothing, it is as it was), or why the record
 * cannot be stored as it is. In three steps: a record of most of a megabyte takes a few
 * milliseconds to check, to hash and to compare, each.
 */
function* finalRecord(draft: Draft): Steps<{ change: ChangedRecord | undefined } | { refusal: WriteRefusal }> {
  const { key, previous } = draft;
  const { collection, id } = key;
  if (draft.record === null) {
    return {
      change:
        previous === undefined
          ? undefined
          : { action: 'delete', collection, id, record: null, previous, changedFields: Object.keys(previous) },
    };
  }
  const validated = validateRecord(collection, draft.record);
  if (!validated.ok) return { refusal: invalidRecord(collection, id, validated.problems) };
  yield;
  const record = deepFreeze(validated.record);
  // Its ETag is in the answer: worked out here, in the set's steps, rather than all at once there.
  recordEtag(record);
  yield;
  if (previous === undefined)
    return { change: { action: 'create', collection, id, record, previous, changedFields: Object.keys(record) } };
  const changedFields = changedTopLevelFields(previous, record);
  return {
    change:
      changedFields.length === 0 ? undefined : { action: 'update', collection, id, record, previous, changedFields },
  };
}

/** The one write of a set of one, as it was applied. */
export function singleWrite(result: AppliedChangeSet): AppliedWrite {
  const { collection, id } = result.touched[0];
  const change = result.changes[0];
  if (change) return { ...change, snapshot: result.snapshot, unchanged: false };
  const record = result.snapshot[collection].get(id) as AnyRecord;
  return {
    action: 'update',
    collection,
    id,
    record,
    previous: record,
    changedFields: [],
    snapshot: result.snapshot,
    unchanged: true,
  };
}

function isDefinition(collection: Collection): collection is DefinitionCollection {
  return (REFERENCE_FIELDS as readonly Collection[]).includes(collection);
}
