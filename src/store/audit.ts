// One structured log line per write, for the audit trail: who wrote (the caller's kind and
// name — a shared token by its role, a person by name and e-mail; never a credential), what,
// and the revisions around it. SQLite also keeps the same facts in its audit_log table,
// written in the write's own transaction.
import type { Logger } from 'pino';
import type { AppliedWrite, WriteRequest } from '../domain/writes/write-request.ts';

export function auditWrite(log: Logger, request: WriteRequest, applied: AppliedWrite, before: string, after: string): void {
  log.info(
    {
      action: applied.action,
      collection: applied.collection,
      id: applied.id,
      role: request.role,
      caller_kind: request.who.kind,
      caller_name: request.who.name,
      ...(request.who.email === undefined ? {} : { caller_email: request.who.email }),
      revision_before: before,
      revision_after: after,
      changed_fields: applied.changedFields,
      ...(applied.unchanged ? { unchanged: true } : {}),
    },
    'audit',
  );
}
