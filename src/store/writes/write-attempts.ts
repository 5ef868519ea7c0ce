// One write — a change set: the writes of one request, one for a REST write, several for
// POST /changes —, applied to the served revision and committed through the backend as one
// revision, and tried again while the store moves under it (someone else committed, another
// instance pushed). The runner lets one write at a time through here, from its first try to
// its answer. A dry run goes the same way up to the commit, and stops there.
//
// Each try is a turn in the runner's queue (loads and writes never overlap there): load the
// newest revision (after the first turn), apply the change set to it — If-Match and every
// rule checked again on that revision, so a record someone else changed meanwhile is refused, never
// overwritten —, commit. A store with a lock of its own (local Git) is locked for the rest of
// the turn after it moved, and cannot move again. A store without one (a remote branch
// another writer pushes to) is tried once more at once, on the head the refused commit found;
// moved again, the write leaves the queue, waits a jittered, growing pause — loads go on
// meanwhile —, and takes its next turn. It gives up with `kept_moving` once WRITE_TIMEOUT has
// passed since its first attempt.
//
// Pauses on the losing side alone do not make two writers take turns; the winner leaves room
// now and then (./writer-turns.ts).
//
// A refusal is checked once more against the newest revision, since the store may hold a
// change not yet noticed.
import { setTimeout as pause } from 'node:timers/promises';
import { recordName } from '../../domain/problem.ts';
import { withRevision } from '../../domain/snapshot.ts';
import { type AppliedChangeSet, type ChangeSetRequest, changeSetSteps } from '../../domain/writes/change-set.ts';
import { runInSlices } from '../runner/event-loop.ts';
import { auditChangeSet } from './audit.ts';
import type { ChangeSet, WriteLock } from '../backend.ts';
import { changeSetMessage } from './change-set-message.ts';
import { asStoreFault, BaseMoved, StoreUnavailable, WriteRefused } from '../errors.ts';
import { RetryPolicy } from '../../shared/retry.ts';
import type { WriteOptions, WritePath, WriteResult } from './write-path.ts';

/**
 * The pauses between turns: from up to 15 ms, doubling up to 500 ms, each drawn below its
 * ceiling. Short at first, so a write that lost one race tries again at once; longer when it
 * keeps losing, so that two writers caught in step fall out of it.
 */
const FIRST_PAUSE_MS = 15;
const MAX_PAUSE_MS = 500;

/** How far a write got over its turns. */
interface Progress {
  /** Commits tried (each one the store refused because it had moved, but the last). */
  attempts: number;
  /** Date.now() when the write's first try began. */
  startedAt: number;
  deadline: number;
}

export async function attemptWrite(
  store: WritePath,
  request: ChangeSetRequest,
  options: WriteOptions = {},
): Promise<WriteResult> {
  // A dry run stores nothing, so it takes no room from another writer.
  const room = options.dryRun ? 0 : store.turns.roomBeforeWrite();
  if (room > 0) await pause(room);
  const startedAt = Date.now();
  const progress: Progress = { attempts: 0, startedAt, deadline: startedAt + store.writeTimeoutMs };
  let pauses: RetryPolicy | undefined;
  for (let turn = 1; ; turn++) {
    const outcome = await store.queue.run(async () => {
      const lock: { current?: WriteLock } = {};
      try {
        return await writeTurn(store, request, options, lock, progress, turn > 1);
      } finally {
        await lock.current?.release();
      }
    });
    if ('done' in outcome) return outcome.done;
    pauses ??= new RetryPolicy({
      firstMs: FIRST_PAUSE_MS,
      maxMs: MAX_PAUSE_MS,
      jitter: true,
      deadline: progress.deadline,
    });
    const wait = pauses.next();
    if (wait === undefined || store.stopped()) throw keptMoving(progress, store.writeTimeoutMs, store.stopped());
    store.log.info(
      {
        attempt: progress.attempts,
        records: recordNames(outcome.moved.applied),
        retry_in_ms: wait,
        why: outcome.moved.error.message,
      },
      'the store moved under a write; applying it again on its new revision',
    );
    await pause(wait);
    if (store.stopped()) throw keptMoving(progress, store.writeTimeoutMs, true);
  }
}

type TurnOutcome = { done: WriteResult } | { moved: { error: BaseMoved; applied: AppliedChangeSet } };

/** One turn in the queue: the write applied to the newest revision and committed, or the store found moved again. */
async function writeTurn(
  store: WritePath,
  request: ChangeSetRequest,
  options: WriteOptions,
  lock: { current?: WriteLock },
  progress: Progress,
  again: boolean,
): Promise<TurnOutcome> {
  if (again) await store.reloads.loadNow('the store moved under a write');
  // A turn after a move starts from the newest revision: a refusal there stands.
  let lookedAgain = again;
  let firstMove = true;
  for (;;) {
    const base = store.publication.published();
    if (!base) throw new StoreUnavailable('not_loaded', 'no configuration has been loaded yet; see /ready');
    const refused = store.publication.refused();
    if (refused) {
      throw new StoreUnavailable(
        'revision_refused',
        `the store holds revision ${refused.revision}, which was refused (${refused.error}); it takes no writes ` +
          `until that is fixed; see /ready`,
        refused.problems,
      );
    }
    // A set of 1,000 writes takes a while to judge: polls are let in meanwhile.
    const outcome = await runInSlices(
      changeSetSteps(base.snapshot, request, {
        shrinkGuard: !(options.dryRun && options.shrinkGuard === false),
        receiverHosts: store.receiverHosts,
      }),
    );
    if (!outcome.ok) {
      // The store may hold more than is served (a change not noticed yet): a refusal stands
      // only on the newest revision. An accepted write needs no such look: the backend's
      // commit finds out, atomically, when the store moved.
      const refused = new WriteRefused(outcome.refusal, outcome.refusal.index);
      if (lookedAgain) throw refused;
      lookedAgain = true;
      await store.reloads.loadNow('a write was refused; looking for a newer revision first');
      if (store.publication.published() === base && !store.publication.refused()) throw refused;
      continue;
    }
    const applied = outcome;
    const revisionBefore = base.snapshot.revision;
    if (options.dryRun) {
      store.log.debug(
        { revision: revisionBefore, records: recordNames(applied), unchanged: applied.unchanged },
        'a dry run of a write: nothing stored',
      );
      return { done: { applied, base, revisionBefore, revisionAfter: null } };
    }
    const set = changeSet(applied, request);
    if (applied.unchanged) {
      await auditChangeSet(store.log, set, applied, revisionBefore, revisionBefore);
      return { done: { applied, base, revisionBefore, revisionAfter: revisionBefore } };
    }
    let committed;
    progress.attempts++;
    const commitStarted = Date.now();
    try {
      committed = await store.backend.commit(set, base, { deadline: progress.deadline });
      store.turns.landed(Date.now() - commitStarted);
    } catch (error) {
      if (!(error instanceof BaseMoved)) {
        if (!(error instanceof StoreUnavailable)) store.log.error({ err: error }, 'a write failed in the store');
        throw asStoreFault(error);
      }
      if (!store.backend.lockForWrite) store.turns.moved();
      if (lock.current || (!store.backend.lockForWrite && !firstMove)) return { moved: { error, applied } };
      store.log.info(
        { attempt: progress.attempts, records: recordNames(applied), why: error.message },
        'the store moved under a write; applying it again on its new revision',
      );
      if (!store.backend.lockForWrite) {
        // The first time in a turn: once more at once, on the head the refused commit found.
        firstMove = false;
        await store.reloads.loadNow('the store moved under a write', true);
        continue;
      }
      // Someone else writes to the store right now: the next attempt loads, applies and
      // commits under the store's own lock, where it cannot move again.
      lock.current = await store.backend.lockForWrite().catch((lockError: unknown) => {
        throw asStoreFault(lockError);
      });
      await store.reloads.loadNow('the store moved under a write');
      continue;
    }
    const sources = sourcesAfterWrite(base.sources, set, committed.sources);
    const snapshot = withRevision(applied.snapshot, committed.revision);
    await store.publication.publishWrite(snapshot, sources, base, set);
    store.log.info(
      {
        revision: committed.revision,
        previous: revisionBefore,
        records: set.changes.length,
        attempts: progress.attempts,
        ms: Date.now() - progress.startedAt,
      },
      'published a write',
    );
    await auditChangeSet(store.log, set, applied, revisionBefore, committed.revision);
    return { done: { applied, base, revisionBefore, revisionAfter: committed.revision } };
  }
}

function keptMoving(progress: Progress, timeoutMs: number, stopping: boolean): StoreUnavailable {
  const tried =
    `${seconds(Date.now() - progress.startedAt)} (${progress.attempts} attempts; WRITE_TIMEOUT is ` +
    `${seconds(timeoutMs)})`;
  return new StoreUnavailable(
    'kept_moving',
    stopping
      ? `the store kept changing under the write and the service is stopping; it was not stored after trying for ` +
          `${tried}, try again`
      : `the store kept changing under the write; it was not stored after trying for ${tried}, try again`,
  );
}

/** "1.2 s" */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** What the backend stores: the records the set changed, with its message and who made it. */
function changeSet(applied: AppliedChangeSet, request: ChangeSetRequest): ChangeSet {
  return {
    changes: applied.changes,
    message: changeSetMessage(applied.changes, request.message),
    role: request.role,
    who: request.who,
  };
}

/** The records a write names, for a log line: the first few. */
function recordNames(applied: AppliedChangeSet): string {
  const names = applied.touched.slice(0, 5).map(recordName);
  return applied.touched.length > 5 ? `${names.join(', ')} and ${applied.touched.length - 5} more` : names.join(', ');
}

/** The record sources (which file each record came from) after a commit: the same map when no record's source moved. */
function sourcesAfterWrite(
  sources: ReadonlyMap<string, string>,
  set: ChangeSet,
  committed: ReadonlyMap<string, string> | undefined,
): ReadonlyMap<string, string> {
  let changed: Map<string, string> | undefined;
  for (const change of set.changes) {
    const key = recordName(change);
    const now = change.record === null ? undefined : committed?.get(key);
    if (change.record === null ? !sources.has(key) : now === undefined || sources.get(key) === now) continue;
    changed ??= new Map(sources);
    if (now === undefined) changed.delete(key);
    else changed.set(key, now);
  }
  return changed ?? sources;
}
