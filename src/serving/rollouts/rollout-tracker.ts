// The progress of the rollouts served, as this replica sees it: the record of each rollout
// (what is released) from the revision published now, the step times and released-answer ETags
// it remembers (./release-evidence.ts), and the poll records (../fleet-polls.ts, merged with
// the other replicas' when there are some). Kept in memory per replica, per rollout by its
// fingerprint (id, component and set: a changed set starts over). The work is the domain's
// (domain/rollouts/rollout-progress.ts), and what the clusters reported is the domain's too
// (domain/rollouts/release-reports.ts, from the events kept: ../cluster-events.ts), walked in
// slices so that polls are answered between them: a rollout of 50,000 clusters never holds the
// event loop more than a few milliseconds.
import { NO_FACTS, type ClusterFacts } from '../../domain/rollouts/cluster-progress.ts';
import {
  COMPONENT_PLACEHOLDER,
  releaseReport,
  reportTarget,
  type ReportTarget,
} from '../../domain/rollouts/release-reports.ts';
import { DEFAULT_SLICE, progressSlices, type RolloutProgress } from '../../domain/rollouts/rollout-progress.ts';
import { rolloutView, type RolloutServing } from '../../domain/rollouts/rollout-view.ts';
import { rolloutFingerprint } from '../../domain/rollouts/step-progress.ts';
import { compareIds } from '../../domain/ids.ts';
import { yieldToEventLoop } from '../../store/runner/event-loop.ts';
import { type EventLookup, NO_EVENTS } from '../cluster-events.ts';
import type { CurrentResponses, PublicationSource } from '../current-responses.ts';
import type { PollLookup } from '../fleet-polls.ts';
import type { ResponseTable } from '../response-table.ts';
import { ReleaseEvidence } from './release-evidence.ts';

/** ROLLOUT_OFFLINE_AFTER's default: half an hour without a poll of any endpoint. */
export const DEFAULT_OFFLINE_AFTER_MS = 30 * 60_000;
/** Members looked at between two turns of the event loop. */
const SLICE = Math.min(DEFAULT_SLICE, 1000);
/** A publication during an evaluation starts it again on the new revision, at most this many times. */
const RESTARTS = 3;

export interface TrackerOptions {
  source: PublicationSource;
  responses: CurrentResponses;
  /** ROLLOUT_OFFLINE_AFTER in milliseconds. */
  offlineAfterMs?: number;
  /** ROLLOUT_RELEASE_NAME: the HelmRelease whose events report a release. */
  releaseName?: string;
  /** The clock (tests give their own). */
  now?: () => number;
}

/** The rollouts of one revision, evaluated. */
export interface EvaluatedRollouts {
  revision: string;
  /** When they were evaluated (ms since the epoch). */
  at: number;
  /** In id order. */
  rollouts: RolloutProgress[];
}

export class RolloutTracker {
  readonly #responses: CurrentResponses;
  readonly #offlineAfterMs: number;
  readonly #releaseName: string;
  readonly #now: () => number;
  /** When this process started tracking: no poll before it is known. */
  readonly #since: number;
  readonly #evidence = new Map<string, ReleaseEvidence>();

  constructor(options: TrackerOptions) {
    this.#responses = options.responses;
    this.#offlineAfterMs = options.offlineAfterMs ?? DEFAULT_OFFLINE_AFTER_MS;
    this.#releaseName = options.releaseName ?? COMPONENT_PLACEHOLDER;
    this.#now = options.now ?? Date.now;
    this.#since = this.#now();
    const published = options.source.published();
    if (published) this.#follow(published.snapshot.revision, servings(published.snapshot));
    options.source.onPublish((next) => this.#follow(next.snapshot.revision, servings(next.snapshot)));
  }

  get offlineAfterMs(): number {
    return this.#offlineAfterMs;
  }

  /** Whether the revision served now has a rollout: without one there is nothing to evaluate. */
  servesRollouts(): boolean {
    const served = this.#responses.current();
    return served !== undefined && served.snapshot.rollouts.size > 0;
  }

  /**
   * The progress of every rollout served now (of the one with id `only`, when given: an empty
   * list when there is none), with `polls` as the poll records and `events` as what the
   * clusters reported; undefined before the first revision is served.
   */
  async evaluate(
    polls: PollLookup,
    only?: string,
    events: EventLookup = NO_EVENTS,
  ): Promise<EvaluatedRollouts | undefined> {
    for (let attempt = 0; ; attempt++) {
      const served = this.#responses.current();
      if (!served) return undefined;
      const chosen = servings(served.snapshot).filter((s) => only === undefined || s.rollout.id === only);
      const at = this.#now();
      const rollouts: RolloutProgress[] = [];
      let superseded = false;
      for (const serving of chosen) {
        const moved = (): boolean => attempt < RESTARTS && this.#responses.current() !== served;
        const progress = await this.#progress(serving, served, { polls, events }, at, moved);
        if (progress === undefined) {
          superseded = true;
          break;
        }
        rollouts.push(progress);
      }
      if (superseded) continue;
      return { revision: served.revision, at, rollouts };
    }
  }

  /** One rollout's progress; undefined when `superseded` says so between two slices. */
  async #progress(
    serving: RolloutServing,
    served: ResponseTable,
    { polls, events }: { polls: PollLookup; events: EventLookup },
    now: number,
    superseded: () => boolean,
  ): Promise<RolloutProgress | undefined> {
    // Only the revision served now moves what is kept (a walk restarted too often ends on an older one).
    const evidence = this.#evidenceOf(serving, served.revision, now, this.#responses.current() === served);
    const clusters = served.snapshot.clusters;
    let target: ReportTarget | undefined;
    const facts = (id: string, releasedAt: number): ClusterFacts | undefined => {
      const cluster = clusters.get(id);
      if (cluster === undefined) return NO_FACTS;
      const answer = served.forCluster('platform-components', cluster.cluster_dns);
      const known = evidence.facts(id, polls.of(id), answer?.kind === 'body' ? answer.etag : null);
      const sent = events.of(id);
      if (sent === undefined) return known;
      // The members of a step share their release time: one target per step.
      if (target?.releasedAt !== releasedAt) target = reportTarget(serving.rollout, this.#releaseName, releasedAt);
      const report = releaseReport(sent, target);
      return report === null ? known : { ...(known ?? NO_FACTS), report };
    };
    const slices = progressSlices(
      {
        serving,
        revision: served.revision,
        times: evidence.times,
        facts,
        now,
        offlineAfterMs: this.#offlineAfterMs,
        trackingSince: this.#since,
      },
      SLICE,
    );
    for (;;) {
      const next = slices.next();
      if (next.done) {
        evidence.keepDone(next.value.times);
        return next.value;
      }
      await yieldToEventLoop();
      if (superseded()) return undefined;
    }
  }

  /** The evidence kept for the rollout, following its record as `revision` serves it. */
  #evidenceOf(serving: RolloutServing, revision: string, now: number, follow = true): ReleaseEvidence {
    const key = rolloutFingerprint(serving.rollout);
    let evidence = this.#evidence.get(key);
    if (evidence === undefined) this.#evidence.set(key, (evidence = new ReleaseEvidence()));
    if (follow) evidence.follow(serving, revision, now);
    return evidence;
  }

  /** A publication: released steps get their times; rollouts gone, or of another set now, are forgotten. */
  #follow(revision: string, served: RolloutServing[]): void {
    const now = this.#now();
    const live = new Set<string>();
    for (const serving of served) {
      live.add(rolloutFingerprint(serving.rollout));
      this.#evidenceOf(serving, revision, now);
    }
    for (const key of this.#evidence.keys()) if (!live.has(key)) this.#evidence.delete(key);
  }
}

/** The rollouts a snapshot serves, in id order. */
function servings(snapshot: ResponseTable['snapshot']): RolloutServing[] {
  return [...rolloutView(snapshot).byComponent.values()].sort((a, b) => compareIds(a.rollout.id, b.rollout.id));
}
