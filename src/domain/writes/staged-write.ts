// One write of a change set applied to the records as the writes before it left them
// (./set-records.ts), checked for what the write alone decides: the id, whether the record
// exists, If-Match, the record's schema, a new id that is not portable, a DNS name another
// cluster holds, a reference listed twice. What the write does to the other records (a
// reference to a record that is not there, a cycle of depends_on, a response grown too large,
// a deleted record still in use) is judged afterwards, once the revision the set makes is
// complete (./write-rules.ts), so that a namespace created after the cluster that references
// it is fine.
//
// A write costs what it holds, not the size of the record it writes: a merge patch changes
// the set's draft of the record in place and has only the parts it touched checked
// (../rules/patched-record.ts); a create or a replace is checked whole, as it is its whole
// record.
import { dnsKey } from '../cluster-dns.ts';
import { isValidId, ID_RULE } from '../ids.ts';
import { problem, recordName } from '../problem.ts';
import type { AnyRecord, Cluster, Collection } from '../records.ts';
import { validateRecord } from '../rules/index.ts';
import { patchedRecordProblems } from '../rules/patched-record.ts';
import { caseClashMessage, isWindowsReservedName, reservedNameMessage } from '../rules/portable-ids.ts';
import { duplicateReferences, REFERENCE_FIELDS } from '../rules/uniqueness.ts';
import { mergePatchInto, ownAll, patchShape } from './merge-patch.ts';
import { ifMatchSatisfied, recordEtag } from './record-etag.ts';
import type { DraftRecord, SetRecords } from './set-records.ts';
import { invalidRecord } from './write-rules.ts';
import type { WriteRefusal, WriteRequest } from './write-request.ts';

/**
 * Applies write number `index` to `records`; or says why it cannot be, and leaves them half changed (the set is
 * refused).
 */
export function stageWrite(records: SetRecords, request: WriteRequest, index: number): WriteRefusal | undefined {
  const { collection } = request;
  const id = request.kind === 'create' ? createId(request.collection, request.body) : request.id;
  if (typeof id !== 'string') return id;
  const key = { collection, id };
  const current = records.get(collection, id);

  // A body that names another id is malformed whether or not the record exists.
  const given = request.kind === 'replace' ? request.body : request.kind === 'merge-patch' ? request.patch : undefined;
  if (given && 'id' in given && given.id !== id) {
    return {
      reason: 'invalid',
      message:
        `the id in the body (${JSON.stringify(given.id)}) must equal the id in the path ("${id}"); ids cannot ` +
        `be changed`,
      problems: [problem('id_change', { record: key, field: '/id' }, `must be "${id}" or left out`)],
      subject: key,
    };
  }
  if (request.kind === 'create' && current)
    return { reason: 'conflict', message: `${recordName(key)} already exists`, problems: [], subject: key };
  if (request.kind !== 'create' && !current) return { reason: 'not_found', message: `${recordName(key)} not found` };
  if (request.kind !== 'create' && request.ifMatch !== undefined) {
    const refusal = preconditionFailed(records, collection, id, request.ifMatch);
    if (refusal) return refusal;
  }
  if (request.kind === 'delete') {
    records.set(collection, id, null, index);
    return undefined;
  }

  let record: DraftRecord;
  /** The top-level fields the write sets: every one for a create or a replace. */
  let touched: ReadonlySet<string> | undefined;
  if (request.kind === 'merge-patch') {
    const shape = patchShape(current, request.patch);
    record = { ...current };
    records.owned.add(record);
    mergePatchInto(record, request.patch, records.owned);
    const problems = patchedRecordProblems(collection, record, shape);
    if (problems.length > 0) return invalidRecord(collection, id, problems);
    touched = new Set(shape.keys());
  } else {
    const validated = validateRecord(collection, request.kind === 'create' ? request.body : { ...request.body, id });
    if (!validated.ok) return invalidRecord(collection, id, validated.problems);
    record = validated.record as unknown as DraftRecord;
    ownAll(record, records.owned);
  }
  if (record.id !== id) {
    return {
      reason: 'invalid',
      message: `the id in the body ("${String(record.id)}") must equal the id in the path ("${id}")`,
      problems: [problem('id_change', { record: key, field: '/id' }, `must be "${id}"`)],
      subject: key,
    };
  }

  // Checked once the record is known to be valid: an id its schema refuses (a namespace's
  // capitals) is a 400 for that, whatever else it clashes with.
  if (!current) {
    const unportable = unportableId(records, collection, id);
    if (unportable) return unportable;
  }
  if (collection === 'clusters') {
    const refusal = clusterRefusal(records, record, touched);
    if (refusal) return refusal;
  }
  records.set(collection, id, record, index);
  return undefined;
}

/** If-Match names the record as the client read it: as the revision the set is applied to holds it. */
function preconditionFailed(
  records: SetRecords,
  collection: Collection,
  id: string,
  ifMatch: string,
): WriteRefusal | undefined {
  const stored = records.base[collection].get(id);
  const key = recordName({ collection, id });
  if (stored === undefined) {
    return {
      reason: 'precondition_failed',
      message:
        `${key} is not in the revision the change set applies to (it is created by an earlier write of the ` +
        `set), so If-Match ${ifMatch} cannot match; leave if_match out of writes to a record the set creates`,
    };
  }
  if (ifMatchSatisfied(ifMatch, recordEtag(stored))) return undefined;
  return {
    reason: 'precondition_failed',
    message:
      `${key} has changed since it was read (If-Match ${ifMatch} does not match its current ETag); read it ` +
      `again and retry`,
  };
}

/** A DNS name another cluster holds, a reference listed twice: for the fields the write set. */
function clusterRefusal(
  records: SetRecords,
  record: DraftRecord,
  touched: ReadonlySet<string> | undefined,
): WriteRefusal | undefined {
  const id = record.id as string;
  const key = { collection: 'clusters' as const, id };
  if (!touched || touched.has('cluster_dns')) {
    const dns = record.cluster_dns as string;
    const holder = records.dnsHolder(dnsKey(dns));
    if (holder !== undefined && holder !== id) {
      return {
        reason: 'conflict',
        message: `cluster_dns ${dns} is already used by cluster ${holder}`,
        problems: [
          problem(
            'duplicate_cluster_dns',
            { record: key, field: '/cluster_dns' },
            `already used by cluster "${holder}"`,
          ),
        ],
        subject: key,
      };
    }
  }
  // A list the write did not set has no duplicates: it had none before (or the revision would not be stored).
  const lists = Object.fromEntries(
    REFERENCE_FIELDS.map((field) => [field, !touched || touched.has(field) ? (record[field] ?? []) : []]),
  );
  const repeated = duplicateReferences({ id, ...lists } as unknown as Cluster);
  return repeated.length > 0 ? invalidRecord('clusters', id, repeated) : undefined;
}

/** The id of a record to create: the body's, which must be a valid id. */
function createId(collection: Collection, body: Record<string, unknown>): string | WriteRefusal {
  if (typeof body.id === 'string' && isValidId(body.id)) return body.id;
  const checked = validateRecord(collection, body);
  return {
    reason: 'invalid',
    message: `the record needs a valid "id" (${ID_RULE})`,
    problems: checked.ok ? [problem('invalid_value', { field: '/id' }, `must be ${ID_RULE}`)] : checked.problems,
  };
}

/**
 * A new id that could not be checked out as a file on macOS or Windows. Only a create makes
 * an id, so only a create is refused for one: a record that already has such an id can still
 * be changed or deleted.
 */
function unportableId(records: SetRecords, collection: Collection, id: string): WriteRefusal | undefined {
  const key = { collection, id };
  if (isWindowsReservedName(id))
    return invalidRecord(collection, id, [
      problem('reserved_file_name', { record: key, field: '/id' }, reservedNameMessage(collection, id)),
    ]);
  const twin = records.caseTwin(collection, id);
  if (twin === undefined) return undefined;
  return {
    reason: 'conflict',
    message: `${recordName(key)} cannot be created: ${caseClashMessage(collection, id, twin)}`,
    problems: [
      problem('id_case_clash', { record: key, field: '/id' }, `differs only in case from the existing id "${twin}"`, {
        refersTo: { collection, id: twin },
      }),
    ],
    subject: key,
  };
}

/** Top-level fields whose values differ, in the record's field order. */
export function changedTopLevelFields(before: AnyRecord, after: AnyRecord): string[] {
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]));
}
