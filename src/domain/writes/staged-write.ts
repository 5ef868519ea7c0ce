// One write applied to a revision's records, checked for what the write alone decides: the
// id, whether the record exists, If-Match, the record's schema, a new id that is not portable,
// a DNS name another cluster holds, a reference listed twice. What the write does to the other
// records (a reference to a record that is not there, a cycle of depends_on, a response grown
// too large, a deleted record still in use) is judged afterwards, once the revision it is
// part of is complete (./write-rules.ts): for a single write at once, for a change set after
// its last write, so that a namespace created after the cluster that references it is fine.
import { dnsKey } from '../cluster-dns.ts';
import { isValidId, ID_RULE } from '../ids.ts';
import { problem, recordName } from '../problem.ts';
import type { AnyRecord, Cluster, Collection } from '../records.ts';
import { validateRecord } from '../rules/index.ts';
import { caseClashMessage, caseTwin, isWindowsReservedName, reservedNameMessage } from '../rules/portable-ids.ts';
import { type Snapshot, withRecord } from '../snapshot.ts';
import { applyMergePatch } from './merge-patch.ts';
import { ifMatchSatisfied, recordEtag } from './record-etag.ts';
import { invalidRecord } from './write-rules.ts';
import type { WriteAction, ApplyResult, WriteRefusal, WriteRequest } from './write-request.ts';

const refuse = (refusal: WriteRefusal): ApplyResult => ({ ok: false, refusal });

/** The write applied to `snapshot`, its rules across records not yet checked; or why it cannot be. */
export function stageWrite(snapshot: Snapshot, request: WriteRequest): ApplyResult {
  const { collection } = request;
  const id = request.kind === 'create' ? createId(request.collection, request.body) : request.id;
  if (typeof id !== 'string') return refuse(id);
  const key = { collection, id };
  const previous = snapshot[collection].get(id) as AnyRecord | undefined;

  // A body that names another id is malformed whether or not the record exists.
  const given = request.kind === 'replace' ? request.body : request.kind === 'merge-patch' ? request.patch : undefined;
  if (given && 'id' in given && given.id !== id) {
    return refuse({
      reason: 'invalid',
      message: `the id in the body (${JSON.stringify(given.id)}) must equal the id in the path ("${id}"); ids cannot be changed`,
      problems: [problem('id_change', { record: key, field: '/id' }, `must be "${id}" or left out`)],
      subject: key,
    });
  }
  if (request.kind === 'create' && previous) return refuse({ reason: 'conflict', message: `${recordName(key)} already exists`, problems: [], subject: key });
  if (request.kind !== 'create' && !previous) return refuse({ reason: 'not_found', message: `${recordName(key)} not found` });
  if (request.kind !== 'create' && request.ifMatch !== undefined && !ifMatchSatisfied(request.ifMatch, recordEtag(previous!))) {
    return refuse({
      reason: 'precondition_failed',
      message: `${recordName(key)} has changed since it was read (If-Match ${request.ifMatch} does not match its current ETag); read it again and retry`,
    });
  }
  if (request.kind === 'delete') {
    const built = withRecord(snapshot, collection, id, null, snapshot.revision);
    if (!built.ok) throw new Error(`deleting ${recordName(key)} made an invalid revision: ${built.problems[0]?.message}`);
    const applied = { action: 'delete' as const, collection, id, record: null, previous, changedFields: Object.keys(previous!), snapshot: built.snapshot, unchanged: false };
    return { ok: true, applied };
  }

  const body = request.kind === 'merge-patch' ? request.patch : request.body;
  const candidate =
    request.kind === 'create' ? body : request.kind === 'replace' ? { ...body, id } : applyMergePatch(previous, request.patch);

  const validated = validateRecord(collection, candidate);
  if (!validated.ok) return refuse(invalidRecord(collection, id, validated.problems));
  const record = validated.record;
  if (record.id !== id) {
    return refuse({
      reason: 'invalid',
      message: `the id in the body ("${record.id}") must equal the id in the path ("${id}")`,
      problems: [problem('id_change', { record: key, field: '/id' }, `must be "${id}"`)],
      subject: key,
    });
  }

  // Checked once the record is known to be valid: an id its schema refuses (a namespace's
  // capitals) is a 400 for that, whatever else it clashes with.
  if (!previous) {
    const unportable = unportableId(snapshot, collection, id);
    if (unportable) return refuse(unportable);
  }

  const action: WriteAction = previous ? 'update' : 'create';
  const changedFields = previous ? changedTopLevelFields(previous, record) : Object.keys(record);
  if (previous && changedFields.length === 0) {
    return { ok: true, applied: { action, collection, id, record: previous, previous, changedFields, snapshot, unchanged: true } };
  }

  if (collection === 'clusters') {
    const cluster = record as Cluster;
    const other = snapshot.clustersByDns.get(dnsKey(cluster.cluster_dns));
    if (other && other.id !== id) {
      return refuse({
        reason: 'conflict',
        message: `cluster_dns ${cluster.cluster_dns} is already used by cluster ${other.id}`,
        problems: [problem('duplicate_cluster_dns', { record: key, field: '/cluster_dns' }, `already used by cluster "${other.id}"`)],
        subject: key,
      });
    }
  }

  const built = withRecord(snapshot, collection, id, record, snapshot.revision);
  if (!built.ok) return refuse(invalidRecord(collection, id, built.problems));
  return { ok: true, applied: { action, collection, id, record, previous, changedFields, snapshot: built.snapshot, unchanged: false } };
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
function unportableId(snapshot: Snapshot, collection: Collection, id: string): WriteRefusal | undefined {
  const key = { collection, id };
  if (isWindowsReservedName(id)) return invalidRecord(collection, id, [problem('reserved_file_name', { record: key, field: '/id' }, reservedNameMessage(collection, id))]);
  const twin = caseTwin(snapshot[collection], id);
  if (twin === undefined) return undefined;
  return {
    reason: 'conflict',
    message: `${recordName(key)} cannot be created: ${caseClashMessage(collection, id, twin)}`,
    problems: [problem('id_case_clash', { record: key, field: '/id' }, `differs only in case from the existing id "${twin}"`, { refersTo: { collection, id: twin } })],
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
