// One write, applied to the served revision and committed through the backend, tried again
// while the store moves under it (someone else committed): the second attempt loads the newer
// revision and, where the backend can, holds the store's own lock so it cannot move again.
// A refusal is checked once more against the newest revision, since the store may hold a
// change not yet noticed. The runner (./store-runner.ts) calls this in its queue.
import type { Logger } from 'pino';
import { type Problem, recordName } from '../domain/problem.ts';
import { type Snapshot, withRevision } from '../domain/snapshot.ts';
import { applyWrite } from '../domain/writes/apply-write.ts';
import type { AppliedWrite, WriteRequest } from '../domain/writes/write-request.ts';
import { auditWrite } from './audit.ts';
import type { Backend, RecordChange, WriteHold } from './backend.ts';
import { asStoreFault, BaseMoved, StoreUnavailable, WriteRefused } from './errors.ts';
import type { Published, WriteResult } from './published.ts';

/** Attempts of a write whose store keeps moving under it. */
const WRITE_ATTEMPTS = 5;

/** What a write sees and does of the store runner. */
export interface WriteSide {
  backend: Backend;
  log: Logger;
  published(): Published | undefined;
  /** The revision the store holds and the runner refused, if any: no writes then. */
  refused(): { revision: string; error: string; problems: Problem[] } | undefined;
  /** Loads the store's newest revision (within the runner's queue). */
  load(reason: string): Promise<void>;
  /** Publishes the written revision. */
  publishWrite(snapshot: Snapshot, sources: ReadonlyMap<string, string>, base: Published): Promise<void>;
}

export async function attemptWrite(side: WriteSide, request: WriteRequest, hold: { current?: WriteHold }): Promise<WriteResult> {
  let lookedAgain = false;
  for (let attempt = 1; ; attempt++) {
    const base = side.published();
    if (!base) throw new StoreUnavailable('not_loaded', 'no configuration has been loaded yet; see /ready');
    const refused = side.refused();
    if (refused) {
      throw new StoreUnavailable(
        'revision_refused',
        `the store holds revision ${refused.revision}, which was refused (${refused.error}); it takes no writes until that is fixed; see /ready`,
        refused.problems,
      );
    }
    const outcome = applyWrite(base.snapshot, request);
    if (!outcome.ok) {
      // The store may hold more than is served (a change not noticed yet): a refusal stands
      // only on the newest revision. An accepted write needs no such look: the backend's
      // commit finds out, atomically, when the store moved.
      if (lookedAgain) throw new WriteRefused(outcome.refusal);
      lookedAgain = true;
      await side.load('a write was refused; looking for a newer revision first');
      if (side.published() === base && !side.refused()) throw new WriteRefused(outcome.refusal);
      continue;
    }
    const { applied } = outcome;
    const revisionBefore = base.snapshot.revision;
    if (applied.unchanged) {
      auditWrite(side.log, request, applied, revisionBefore, revisionBefore);
      return { applied, revisionBefore, revisionAfter: revisionBefore };
    }
    let committed;
    try {
      committed = await side.backend.commit(recordChange(applied, request), base);
    } catch (error) {
      if (!(error instanceof BaseMoved)) {
        if (!(error instanceof StoreUnavailable)) side.log.error({ err: error }, 'a write failed in the store');
        throw asStoreFault(error);
      }
      if (attempt >= WRITE_ATTEMPTS) {
        throw new StoreUnavailable('kept_moving', `the store kept changing under the write; it was not stored after ${attempt} attempts, try again`);
      }
      side.log.info({ attempt, record: recordName(applied), why: error.message }, 'the store moved under a write; applying it again on its new revision');
      // Someone else writes to the store right now: the next attempt loads, applies and
      // commits under the store's own lock, where it cannot move again.
      hold.current ??= await side.backend.holdForWrite?.().catch((holdError: unknown) => {
        throw asStoreFault(holdError);
      });
      await side.load('the store moved under a write');
      continue;
    }
    const sources = sourcesAfterWrite(base.sources, applied, committed.source);
    const snapshot = withRevision(applied.snapshot, committed.revision);
    await side.publishWrite(snapshot, sources, base);
    side.log.info({ revision: committed.revision, previous: revisionBefore, attempts: attempt }, 'published a write');
    auditWrite(side.log, request, applied, revisionBefore, committed.revision);
    return { applied, revisionBefore, revisionAfter: committed.revision };
  }
}

function recordChange({ action, collection, id, record, previous, changedFields }: AppliedWrite, request: WriteRequest): RecordChange {
  return { action, collection, id, record, previous, changedFields, role: request.role, who: request.who };
}

/** The record sources (which file each record came from) after a committed write: the same map when the write did not move a record's source. */
function sourcesAfterWrite(sources: ReadonlyMap<string, string>, applied: AppliedWrite, committedSource: string | undefined): ReadonlyMap<string, string> {
  const key = recordName(applied);
  const moved = applied.record === null ? sources.has(key) : committedSource !== undefined && sources.get(key) !== committedSource;
  if (!moved) return sources;
  const changed = new Map(sources);
  if (applied.record === null) changed.delete(key);
  else changed.set(key, committedSource!);
  return changed;
}
