// One REST write applied to a revision, in memory: the next records, or why not. Pure: the
// store runner calls it on the served revision inside its write lock, and again on a newer
// revision when the store moved meanwhile, and stores only what it returns. So every backend
// accepts and refuses exactly the same writes.
//
// The candidate record is checked against its schema (the same code that reads files, rows
// and the seed), then the rules the change can affect run on the revision it would make
// (rules/index.ts: checkRecordChange). Only problems the write introduces refuse it;
// warnings never do.
import { dnsKey } from '../cluster-dns.ts';
import { isValidId, ID_RULE } from '../ids.ts';
import { isError, type Problem, problem, problemIdentity, recordName } from '../problem.ts';
import type { AnyRecord, Cluster, Collection } from '../records.ts';
import { checkRecordChange, validateRecord } from '../rules/index.ts';
import { dependents } from '../rules/catalog.ts';
import { caseClashMessage, caseTwin, isWindowsReservedName, reservedNameMessage } from '../rules/portable-ids.ts';
import { referencingClusters } from '../rules/references.ts';
import { type Snapshot, withRecord } from '../snapshot.ts';
import { applyMergePatch } from './merge-patch.ts';
import { ifMatchSatisfied, recordEtag } from './record-etag.ts';
import type { WriteAction, ApplyResult, WriteRefusal, WriteRequest } from './write-request.ts';

/** How many ids a refusal names before it says "and N more". */
const NAMES_IN_MESSAGE = 20;

const SINGULAR: Record<Collection, string> = {
  clusters: 'cluster',
  platform_components: 'platform component',
  namespaces: 'namespace',
  rolebindings: 'rolebinding',
};

const refuse = (refusal: WriteRefusal): ApplyResult => ({ ok: false, refusal });

export function applyWrite(snapshot: Snapshot, request: WriteRequest): ApplyResult {
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
  if (request.kind === 'delete') return applyDelete(snapshot, collection, id, previous!);

  const body = request.kind === 'merge-patch' ? request.patch : request.body;
  const candidate =
    request.kind === 'create' ? body : request.kind === 'replace' ? { ...body, id } : applyMergePatch(previous, request.patch);

  const validated = validateRecord(collection, candidate);
  if (!validated.ok) return refuse(invalid(collection, id, validated.problems));
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
  if (!built.ok) return refuse(invalid(collection, id, built.problems));
  // Writes ratchet (docs/decisions/0004-writes-ratchet.md): a problem the record already had
  // (a dangling reference the read contract allows, a list already too long) does not block
  // a write that leaves it as it was.
  const had = new Set(previous ? checkRecordChange(snapshot, snapshot, collection, previous).filter(isError).map(problemIdentity) : []);
  const problems = checkRecordChange(snapshot, built.snapshot, collection, record).filter((p) => isError(p) && !had.has(problemIdentity(p)));
  if (problems.length > 0) return refuse(invalid(collection, id, problems));
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
  if (isWindowsReservedName(id)) return invalid(collection, id, [problem('reserved_file_name', { record: key, field: '/id' }, reservedNameMessage(collection, id))]);
  const twin = caseTwin(snapshot[collection], id);
  if (twin === undefined) return undefined;
  return {
    reason: 'conflict',
    message: `${recordName(key)} cannot be created: ${caseClashMessage(collection, id, twin)}`,
    problems: [problem('id_case_clash', { record: key, field: '/id' }, `differs only in case from the existing id "${twin}"`, { refersTo: { collection, id: twin } })],
    subject: key,
  };
}

function applyDelete(snapshot: Snapshot, collection: Collection, id: string, previous: AnyRecord): ApplyResult {
  const key = { collection, id };
  if (collection !== 'clusters') {
    const clusters = referencingClusters(snapshot, collection, id);
    if (clusters.length > 0) {
      return refuse({
        reason: 'conflict',
        message: `${recordName(key)} is still referenced by clusters: ${listNames(clusters)}; remove those references first`,
        problems: [problem('still_referenced', { record: key, field: '' }, `referenced by ${clusters.length} cluster(s)`)],
        subject: key,
      });
    }
  }
  if (collection === 'platform_components') {
    const entries = dependents(snapshot, id);
    if (entries.length > 0) {
      return refuse({
        reason: 'conflict',
        message: `${recordName(key)} is still a depends_on of catalog entries: ${listNames(entries)}; change their depends_on first`,
        problems: [
          problem('still_referenced', { record: key, field: '' }, `depended on by ${entries.length} catalog entr${entries.length === 1 ? 'y' : 'ies'}`),
        ],
        subject: key,
      });
    }
  }
  const built = withRecord(snapshot, collection, id, null, snapshot.revision);
  if (!built.ok) throw new Error(`deleting ${recordName(key)} made an invalid revision: ${built.problems[0]?.message}`);
  const applied = { action: 'delete' as const, collection, id, record: null, previous, changedFields: Object.keys(previous), snapshot: built.snapshot, unchanged: false };
  return { ok: true, applied };
}

/** A refusal naming every problem (the first three in the message). */
function invalid(collection: Collection, id: string, problems: Problem[]): WriteRefusal {
  const own = (p: Problem) => !p.at.record || (p.at.record.collection === collection && p.at.record.id === id);
  const where = (p: Problem) => (own(p) ? p.at.field : '');
  const summary = problems
    .slice(0, 3)
    .map((p) => (where(p) ? `${where(p)}: ${p.message}` : p.message))
    .join('; ');
  const subject = { collection, id };
  const placed = problems.map((p) => (p.at.record ? p : { ...p, at: { ...p.at, record: subject } }));
  return {
    reason: 'invalid',
    message: `the ${SINGULAR[collection]} record is invalid: ${summary}${problems.length > 3 ? '; ...' : ''}`,
    problems: placed,
    subject,
  };
}

function listNames(ids: string[]): string {
  const shown = ids.slice(0, NAMES_IN_MESSAGE).join(', ');
  return ids.length > NAMES_IN_MESSAGE ? `${shown} and ${ids.length - NAMES_IN_MESSAGE} more` : shown;
}

/** Top-level fields whose values differ, in the record's field order. */
export function changedTopLevelFields(before: AnyRecord, after: AnyRecord): string[] {
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]));
}
