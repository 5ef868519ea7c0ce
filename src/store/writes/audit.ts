// One structured log line per record a write changed, for the audit trail: who wrote (the
// caller's kind and name — a shared token by its role, a person by name and e-mail; never a
// credential), what, the message it was stored with, and the revisions around it. A change
// set of several records writes one line per record, all with the same revisions and message.
// SQLite also keeps the same facts in its audit_log table, written in the write's own
// transaction.
import type { Logger } from 'pino';
import type { Steps } from '../../domain/steps.ts';
import type { AppliedChangeSet } from '../../domain/writes/change-set.ts';
import type { ChangeSet, RecordChange } from '../backend.ts';
import { runInSlices } from '../runner/event-loop.ts';

/** The lines of a change set, written in slices: a set of 1,000 records writes 1,000 lines. */
export function auditChangeSet(
  log: Logger,
  set: ChangeSet,
  applied: AppliedChangeSet,
  before: string,
  after: string,
): Promise<void> {
  return runInSlices(auditLines(log, set, applied, before, after));
}

function* auditLines(
  log: Logger,
  set: ChangeSet,
  applied: AppliedChangeSet,
  before: string,
  after: string,
): Steps<void> {
  // A set that changes nothing is logged too, one line per record it named, so that the
  // trail shows every write that reached the store.
  const lines: { change: Pick<RecordChange, 'action' | 'collection' | 'id' | 'changedFields'>; unchanged: boolean }[] =
    applied.unchanged
      ? applied.touched.map(({ collection, id }) => ({
          change: { action: 'update', collection, id, changedFields: [] },
          unchanged: true,
        }))
      : set.changes.map((change) => ({ change, unchanged: false }));
  for (const { change, unchanged } of lines) {
    log.info(
      {
        action: change.action,
        collection: change.collection,
        id: change.id,
        role: set.role,
        caller_kind: set.who.kind,
        caller_name: set.who.name,
        ...(set.who.email === undefined ? {} : { caller_email: set.who.email }),
        revision_before: before,
        revision_after: after,
        changed_fields: change.changedFields,
        message: set.message,
        ...(unchanged ? { unchanged: true } : {}),
      },
      'audit',
    );
    yield;
  }
}
