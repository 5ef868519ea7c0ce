// The audit_log rows of one write or change set, written inside its own transaction: one row
// per record changed, each with what changed, the revisions around it, the change's message
// (the same for every row of a set), and who wrote it (a shared token by its role, a person
// by name and e-mail; never a credential).
import type { ChangeSet, RecordChange } from '../../backend.ts';
import type { Db } from './sqlite-database.ts';

export function insertAuditRow(
  db: Db,
  set: Omit<ChangeSet, 'changes'>,
  change: RecordChange,
  before: number,
  after: number,
): void {
  db.prepare(
    `INSERT INTO audit_log (at, action, collection, record_id, token_role, changed_fields, revision_before, ` +
      `revision_after, caller_kind, caller_name, caller_email, message)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    new Date().toISOString(),
    change.action,
    change.collection,
    change.id,
    set.role,
    JSON.stringify(change.changedFields),
    BigInt(before),
    BigInt(after),
    set.who.kind,
    set.who.name,
    set.who.email ?? null,
    set.message,
  );
}
