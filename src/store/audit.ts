// One structured log line per write, for the audit trail (docs/decisions/0011-audit-trail.md): which token
// (never the token itself), what, and the revisions around it. SQLite also keeps the same
// facts in its audit_log table, written in the write's own transaction.
import type { Logger } from 'pino';
import type { AppliedWrite, WriteRequest } from '../domain/writes/write-request.ts';

export function auditWrite(log: Logger, request: WriteRequest, applied: AppliedWrite, before: string, after: string): void {
  log.info(
    {
      action: applied.action,
      collection: applied.collection,
      id: applied.id,
      role: request.role,
      revision_before: before,
      revision_after: after,
      changed_fields: applied.changedFields,
      ...(applied.unchanged ? { unchanged: true } : {}),
    },
    'audit',
  );
}
