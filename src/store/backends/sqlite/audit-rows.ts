// The audit_log row of one write, written inside the write's own transaction: what changed,
// the revisions around it, and who wrote it (a shared token by its role, a person by name
// and e-mail; never a credential).
import type { RecordChange } from '../../backend.ts';
import type { Db } from './sqlite-database.ts';

export function insertAuditRow(db: Db, change: RecordChange, before: number, after: number): void {
  db.prepare(
    `INSERT INTO audit_log (at, action, collection, record_id, token_role, changed_fields, revision_before, revision_after, caller_kind, caller_name, caller_email)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    new Date().toISOString(),
    change.action,
    change.collection,
    change.id,
    change.role,
    JSON.stringify(change.changedFields),
    BigInt(before),
    BigInt(after),
    change.who.kind,
    change.who.name,
    change.who.email ?? null,
  );
}
