// The revisions this process judged, newest first: published or refused, when, what the
// store says of each (a Git commit's author, time and message), whose answers each changed,
// and a refused one's problems. The last 1,000 are kept, each bounded in bytes (the start of
// its message, the first problems: ./history-bounds.ts), and listed in pages that end at
// `limit` entries or PAGE_BYTES, whichever comes first, each naming where the next begins.
// Git's are filled at start from the history the runner judges anyway to find its baseline
// (./start-history.ts), so a restart shows the same list; other stores start empty.
//
// Which clusters' answers a revision changed is worked out when it is judged, against the
// revision published before it (for a refused one: the one it would have replaced), by
// domain/changed-clusters.ts, which merges only clusters whose records or definitions are not
// the same objects in both. The ids are kept compactly (./cluster-id-sets.ts). What is kept and
// why: docs/decisions/0031-change-sets-and-history-at-their-largest.md. So are the ids of the
// rollout records it created, changed or removed (few), for a rollout's own history.
import { changedClusterIdsInSteps } from '../../domain/changed-clusters.ts';
import { changedRolloutIds } from '../../domain/rollouts/changed-rollouts.ts';
import type { Problem } from '../../domain/problem.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { RevisionFacts } from '../backend.ts';
import { type ClusterIdSet, ClusterIdSets } from './cluster-id-sets.ts';
import { runInBackground } from '../runner/event-loop.ts';
import { type BoundedFacts, boundedFacts, boundedProblems } from './history-bounds.ts';

/** How many revisions are kept. */
export const REVISIONS_KEPT = 1000;
/** A page of the list ends once its entries' JSON reaches this many bytes (it holds one entry at least). */
export const PAGE_BYTES = 1024 * 1024;
/** How many cluster ids an entry names; `clusters_changed` counts them all. */
export const CLUSTERS_NAMED = 100;
/** How many clusters the walk looks at between two looks at the clock: well under a slice of background work. */
const CLUSTERS_PER_SLICE = 50;
/**
 * How long the store's queue must have been quiet before the walk takes a slice: longer than
 * the gap between two writes sent back to back (a millisecond or two, ten and more on a loaded
 * machine), so the walk does not take its slices there.
 */
export const HISTORY_QUIET_MS = 25;
/** How long the walk waits for the store's queue to be quiet before it takes a slice all the same. */
export const HISTORY_WAIT_MS = 250;
/**
 * How many entries may wait to be made before the walk stops waiting for quiet: each holds its
 * revision's snapshot (some 15 KB), and writes sent back to back come faster than one slice per
 * HISTORY_WAIT_MS. A burst of fewer writes than this still does not wait for the walk.
 */
export const HISTORY_BACKLOG = 64;

/** One judged revision, as the history lists it. */
export interface HistoryEntry {
  revision: string;
  result: 'published' | 'refused';
  judged_at: string;
  author: { name: string; email: string | null } | null;
  time: string | null;
  /** The start of the message: at most HISTORY_MESSAGE_BYTES of it. */
  message: string | null;
  /** The message is longer than what `message` holds. */
  message_truncated: boolean;
  /** Clusters whose answers it changed; null when the revision before it is not known. */
  clusters_changed: number | null;
  /** The first of them in id order, at most CLUSTERS_NAMED. */
  clusters: string[] | null;
  /** A refused revision's problems (those that refused it): the first HISTORY_PROBLEMS. */
  problems: readonly Problem[];
  /** How many problems refused it. */
  problems_count: number;
}

interface Kept {
  revision: string;
  result: HistoryEntry['result'];
  judgedAt: string;
  facts: BoundedFacts | undefined;
  changed: { set: ClusterIdSet; count: number; named: string[] } | null;
  /** The rollouts whose records it created, changed or removed; null when the revision before it is not known. */
  rollouts: readonly string[] | null;
  problems: readonly Problem[];
  problemsCount: number;
}

export interface HistoryQuery {
  /** Only revisions that changed this cluster's answers. */
  cluster?: string;
  /** Only revisions that created, changed or removed this rollout's record. */
  rollout?: string;
  limit: number;
  /** Only revisions judged before (the newest entry of) this one: where the page before ended. */
  before?: string;
}

/** One page of the list: `next` is the revision to ask `before` for the page after it, null at the end. */
export interface HistoryPage {
  revisions: HistoryEntry[];
  next: string | null;
}

/** A published revision and the ids of the clusters whose answers it changed, in id order. */
export type ClustersChangedListener = (published: Snapshot, clusterIds: readonly string[]) => void;

/** A promise and the function that resolves it. */
function asking(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export class RevisionHistory {
  readonly #factsOf: (revision: string) => Promise<RevisionFacts | undefined>;
  readonly #whenQuiet: () => Promise<void>;
  readonly #kept: number;
  readonly #pageBytes: number;
  /** Oldest first. */
  #entries: Kept[] = [];
  #sets = new ClusterIdSets();
  /** The revision published last: what the next one changed answers against. */
  #published: Snapshot | undefined;
  /** The entries being made, in the order judged. */
  #work: Promise<void> = Promise.resolve();
  /** How many entries are told and not yet made. */
  #waiting = 0;
  /** Resolved when someone waits for the entries told so far: the walk then stops waiting for quiet. */
  #asked = asking();
  readonly #changedListeners = new Set<ClustersChangedListener>();

  /**
   * `factsOf`: what the store says of a revision (Backend.revisionFacts). `whenQuiet`: resolves
   * when the store's loads and writes leave room (../runner/serial-queue.ts quiet): the walk
   * of the fleet for an entry runs in the gaps between them, not in their way.
   */
  constructor(
    factsOf: (revision: string) => Promise<RevisionFacts | undefined>,
    kept = REVISIONS_KEPT,
    pageBytes = PAGE_BYTES,
    whenQuiet: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.#factsOf = factsOf;
    this.#whenQuiet = whenQuiet;
    this.#kept = kept;
    this.#pageBytes = pageBytes;
  }

  /**
   * A revision published. `facts`: what is known of it besides the store (the author and
   * message of a write), for a store that says nothing of its revisions. Publishing again the
   * revision published last (at start, an earlier one served when the newest was refused)
   * adds nothing.
   */
  published(snapshot: Snapshot, facts?: RevisionFacts): void {
    if (snapshot.revision === this.#published?.revision) return;
    const before = this.#published;
    this.#published = snapshot;
    this.#add({ revision: snapshot.revision, result: 'published', problems: [] }, before, snapshot, facts);
  }

  /** A revision refused, with the problems that refused it. */
  refused(snapshot: Snapshot, problems: readonly Problem[]): void {
    this.#add({ revision: snapshot.revision, result: 'refused', problems }, this.#published, snapshot);
  }

  /**
   * Told, in the order published, which clusters' answers each published revision changed,
   * once that is worked out (never for the first of a process): what the receivers' notices
   * need, without a second walk of the fleet. Returns the function that unsubscribes.
   */
  onClustersChanged(listener: ClustersChangedListener): () => void {
    this.#changedListeners.add(listener);
    return () => this.#changedListeners.delete(listener);
  }

  /**
   * Resolves once every revision told so far is in the list. Whoever waits for it does not wait
   * for the store's queue to be quiet as well: the walk takes its slices from then on at once.
   */
  async settled(): Promise<void> {
    this.#asked.resolve();
    await this.#work;
    this.#asked = asking();
  }

  /**
   * Newest first, once every revision told so far is in the list: at most `limit` entries and
   * about PAGE_BYTES of them. Undefined when `before` names a revision the list does not hold
   * (never judged here, or forgotten since).
   */
  async list(query: HistoryQuery): Promise<HistoryPage | undefined> {
    await this.settled();
    let from = this.#entries.length - 1;
    if (query.before !== undefined) {
      while (from >= 0 && this.#entries[from].revision !== query.before) from--;
      if (from < 0) return undefined;
      from--;
    }
    const matches = (entry: Kept) =>
      (query.cluster === undefined || (entry.changed !== null && this.#sets.has(entry.changed.set, query.cluster))) &&
      (query.rollout === undefined || entry.rollouts?.includes(query.rollout) === true);
    const revisions: HistoryEntry[] = [];
    let bytes = 0;
    let i = from;
    for (; i >= 0; i--) {
      const entry = this.#entries[i];
      if (!matches(entry)) continue;
      if (revisions.length === query.limit || bytes >= this.#pageBytes) break;
      const shown = view(entry);
      bytes += Buffer.byteLength(JSON.stringify(shown));
      revisions.push(shown);
    }
    return { revisions, next: i >= 0 && revisions.length > 0 ? revisions.at(-1)!.revision : null };
  }

  /**
   * Entries are made in the order judged, one after another, after the publication that told
   * of them has been answered: finding the clusters a catalog change reached walks the fleet
   * (some 30–50 ms at 10,000 clusters), which a write's answer need not wait for, nor the next
   * write: the walk runs in short slices when the store's queue is quiet (at the latest
   * HISTORY_WAIT_MS after its last slice when it never is).
   */
  #add(
    judged: Pick<Kept, 'revision' | 'result'> & { problems: readonly Problem[] },
    before: Snapshot | undefined,
    after: Snapshot,
    given?: RevisionFacts,
  ): void {
    const judgedAt = new Date().toISOString();
    this.#waiting++;
    const work = this.#work.then(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      let ids: string[] | undefined;
      try {
        ids =
          before === undefined
            ? undefined
            : await runInBackground(changedClusterIdsInSteps(before, after, CLUSTERS_PER_SLICE), () =>
                this.#waiting > HISTORY_BACKLOG
                  ? Promise.resolve()
                  : Promise.race([this.#whenQuiet(), this.#asked.promise]),
              );
      } catch {
        // Not known rather than no entry: the revision was judged all the same.
        ids = undefined;
      }
      const problems = boundedProblems(judged.problems);
      const entry: Kept = {
        revision: judged.revision,
        result: judged.result,
        problems: problems.kept,
        problemsCount: problems.count,
        judgedAt,
        facts: given && boundedFacts(given),
        rollouts: before === undefined ? null : changedRolloutIds(before, after),
        changed:
          ids === undefined
            ? null
            : { set: this.#sets.of(ids), count: ids.length, named: ids.slice(0, CLUSTERS_NAMED) },
      };
      this.#entries.push(entry);
      if (judged.result === 'published' && ids !== undefined) {
        for (const listener of this.#changedListeners) listener(after, ids);
      }
      if (this.#entries.length > this.#kept) this.#forgetOldest();
      const told = await this.#factsOf(entry.revision).catch(() => undefined);
      if (told) entry.facts = boundedFacts(told);
    });
    this.#work = work.finally(() => this.#waiting--);
  }

  #forgetOldest(): void {
    this.#entries.shift();
    // The numbering of cluster ids is made afresh once it holds far more ids than the fleet.
    const fleet = this.#published?.clusters.size ?? 0;
    if (this.#sets.size <= 2 * fleet + 10_000) return;
    const withSets = this.#entries.filter((e) => e.changed !== null);
    const { sets, renumbered } = this.#sets.renumbered(withSets.map((e) => e.changed!.set));
    withSets.forEach((e, i) => (e.changed = { ...e.changed!, set: renumbered[i] }));
    this.#sets = sets;
  }
}

function view(entry: Kept): HistoryEntry {
  const { facts, changed } = entry;
  return {
    revision: entry.revision,
    result: entry.result,
    judged_at: entry.judgedAt,
    author: facts?.author ?? null,
    time: facts?.time ?? null,
    message: facts?.message ?? null,
    message_truncated: facts?.messageTruncated ?? false,
    clusters_changed: changed ? changed.count : null,
    clusters: changed ? changed.named : null,
    problems: entry.problems,
    problems_count: entry.problemsCount,
  };
}
