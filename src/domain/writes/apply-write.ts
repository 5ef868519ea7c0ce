// One REST write applied to a revision, in memory: the next records, or why not. Pure: the
// store runner calls it on the served revision inside its write lock, and again on a newer
// revision when the store moved meanwhile, and stores only what it returns. So every backend
// accepts and refuses exactly the same writes.
//
// A single write is a change set of one (./change-set.ts), judged by the same code: the
// candidate record checked against its schema (the same code that reads files, rows and the
// seed), then the rules the change can affect on the revision it would make
// (rules/index.ts: checkRecordChange). Only problems the write introduces refuse it;
// warnings never do.
import type { Snapshot } from '../snapshot.ts';
import { applyChangeSet, singleWrite } from './change-set.ts';
import type { ApplyResult, WriteRequest } from './write-request.ts';

export { changedTopLevelFields } from './staged-write.ts';

export function applyWrite(snapshot: Snapshot, request: WriteRequest): ApplyResult {
  const result = applyChangeSet(snapshot, { writes: [request], role: request.role, who: request.who });
  if (!result.ok) {
    const { index: _index, ...refusal } = result.refusal;
    return { ok: false, refusal };
  }
  return { ok: true, applied: singleWrite(result) };
}
