// What the first revision a process loads is judged against: the revision served before the
// restart, as well as the store can tell. A store with history (Git) offers its commits: they
// are judged oldest first, each against the newest that passed, and the newest that passes is
// the baseline — and what is served if the store's newest revision is refused. A store
// without history (SQLite) kept the facts of the revision it published last (keepForRestart,
// after every publication).
import type { ReceiverHosts } from '../../domain/receiver-hosts.ts';
import type { Logger } from 'pino';
import { type Baseline, baselineFacts } from '../../domain/baseline.ts';
import { retiredAfter } from '../../domain/credential-generations.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { Backend, LoadedRevision } from '../backend.ts';
import type { PublishedRevision } from '../runner/published-revision.ts';
import { buildRevision, type JudgedRevision, judgeRevision } from '../runner/judged-revision.ts';
import { locateRefusedProblems } from '../runner/refused-problems.ts';
import type { RevisionHistory } from './revision-history.ts';

/** How far back a restart looks for a revision that passes (docs/decisions/0003-baseline-survives-restarts.md). */
export const HISTORY_LIMIT = 100;

/** What the look back through the store's history at start found. */
export interface StartHistory {
  baseline: Baseline | undefined;
  /** The newest earlier revision that passes: served when the newest one is refused. */
  fallback: JudgedRevision | undefined;
  /** The newest earlier revision read, passing or not: what the newest one is built from. */
  previous?: Snapshot;
  /** The credential_generation of the clusters the history deleted (or the facts kept say were). */
  retired: ReadonlyMap<string, number>;
}

/**
 * What the store offers of the revisions before `newest`; undefined when it cannot be read
 * (logged: the newest revision is then judged without it). Each revision of a history is
 * told to `history` as it is judged, so that the list of revisions survives a restart.
 */
export async function readStartHistory(
  backend: Backend,
  newest: LoadedRevision,
  /** GUARD_ACCEPT_REVISION, as for every load. */
  acceptShrink: readonly string[],
  log: Logger,
  history?: RevisionHistory,
  /** RECEIVER_HOSTS, as for every load. */
  receiverHosts?: ReceiverHosts,
): Promise<StartHistory | undefined> {
  try {
    return await lookBack(backend, newest, acceptShrink, history, receiverHosts);
  } catch (error) {
    log.warn({ err: error }, 'the history of the store could not be read; the newest revision is judged without it');
    return undefined;
  }
}

async function lookBack(
  backend: Backend,
  newest: LoadedRevision,
  acceptShrink: readonly string[],
  history: RevisionHistory | undefined,
  receiverHosts: ReceiverHosts | undefined,
): Promise<StartHistory> {
  if (backend.ancestors) {
    let good: JudgedRevision | undefined;
    let previous: Snapshot | undefined;
    let retired: ReadonlyMap<string, number> = new Map();
    for await (const revision of backend.ancestors(newest.revision, HISTORY_LIMIT)) {
      const judged = judgeRevision(
        revision,
        buildRevision(revision, previous),
        good?.snapshot,
        acceptShrink,
        retired,
        receiverHosts,
      );
      previous = judged.snapshot;
      if (judged.judgement.publish) {
        // The clusters each published revision deleted, with their generations.
        retired = retiredAfter(retired, good?.snapshot, judged.snapshot);
        good = judged;
        history?.published(judged.snapshot);
      } else if (history)
        history.refused(
          judged.snapshot,
          await locateRefusedProblems(backend, revision.revision, judged.judgement.blocking),
        );
    }
    return { baseline: good?.snapshot, fallback: good, previous, retired };
  }
  if (backend.recallBaseline) {
    const facts = await backend.recallBaseline();
    return { baseline: facts, fallback: undefined, retired: new Map(Object.entries(facts?.retired ?? {})) };
  }
  return { baseline: undefined, fallback: undefined, retired: new Map() };
}

/**
 * The generations of the clusters deleted before `next`, as it is published after `previous`
 * (or, for the first of a process, after what the look back at start found).
 */
export function retiredOnPublish(
  previous: PublishedRevision | undefined,
  start: StartHistory | undefined,
  next: Snapshot,
): ReadonlyMap<string, number> {
  if (previous) return retiredAfter(previous.retired, previous.snapshot, next);
  const baseline = start?.baseline && 'clusters' in start.baseline ? start.baseline : undefined;
  return retiredAfter(start?.retired ?? new Map(), baseline, next);
}

/** A store without history keeps what the rules need of each published revision, for the next start. */
export async function keepForRestart(
  backend: Backend,
  snapshot: Snapshot,
  log: Logger,
  retired?: ReadonlyMap<string, number>,
): Promise<void> {
  if (!backend.keepBaseline) return;
  try {
    await backend.keepBaseline(baselineFacts(snapshot, retired));
  } catch (error) {
    log.warn({ err: error }, 'the facts of the published revision could not be kept');
  }
}
