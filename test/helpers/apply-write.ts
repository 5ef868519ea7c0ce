// One REST write applied to a revision, in memory, as the domain tests ask it: the next
// records, or why not. The service applies a single write the way it applies every write, as a
// change set of one (src/domain/writes/change-set.ts, which the store's writes run in steps);
// this is that same code, called at once and answering for the one write, without the index.
import type { Snapshot } from '../../src/domain/snapshot.ts';
import { applyChangeSet, singleWrite } from '../../src/domain/writes/change-set.ts';
import type { ApplyResult, WriteRequest } from '../../src/domain/writes/write-request.ts';

export function applyWrite(snapshot: Snapshot, request: WriteRequest): ApplyResult {
  const result = applyChangeSet(snapshot, { writes: [request], role: request.role, who: request.who });
  if (!result.ok) {
    const { index: _index, ...refusal } = result.refusal;
    return { ok: false, refusal };
  }
  return { ok: true, applied: singleWrite(result) };
}
