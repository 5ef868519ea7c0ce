// What one replica knows of a rollout between evaluations (domain/rollouts/): per step, when it
// was first seen released and done (StepTimes), and per member, the ETags of the answers it was
// served while its step was released. A member whose last platform-components poll got one of
// those ETags holds its release: `fetched`. The ETags are remembered because the answer a
// cluster fetched may be replaced by a later revision (another change of its components)
// before the next evaluation looks; while its step stays released, any of them is evidence.
import type { ClusterFacts } from '../../domain/rollouts/cluster-progress.ts';
import type { RolloutServing } from '../../domain/rollouts/rollout-view.ts';
import type { StepTimes } from '../../domain/rollouts/step-progress.ts';
import type { ClusterPolls } from '../fleet-polls.ts';

/**
 * Released-answer ETags kept per member: the last few revisions that changed its answer while its step was released.
 */
const ETAGS_PER_MEMBER = 4;

export class ReleaseEvidence {
  /** Per step number, for released steps only. */
  readonly times = new Map<number, StepTimes>();
  /** Member id → ETags of answers it was served with its step released, oldest first. */
  readonly #etags = new Map<string, string | string[]>();
  /**
   * Member id → the poll at which it was first seen holding its release: `fetched` since then,
   * not since its latest poll (a cluster polls every few minutes; its state did not change).
   */
  readonly #fetchedSince = new Map<string, number>();

  /**
   * Follows the record as a revision publishes it: a step released now and not before gets its
   * release time and revision; a step no longer released (a rollback) forgets its times and
   * its members' ETags, so that releasing it again starts over.
   */
  follow(serving: RolloutServing, revision: string, now: number): void {
    const { plan, rollout } = serving;
    for (const step of plan.steps) {
      if (step.step <= rollout.released) {
        if (!this.times.has(step.step))
          this.times.set(step.step, { released_in: revision, released_at: now, done_at: null });
      } else if (this.times.delete(step.step)) {
        for (const id of step.members) {
          this.#etags.delete(id);
          this.#fetchedSince.delete(id);
        }
      }
    }
    // A plan that has fewer steps now (its waves or clusters changed) leaves no times past its end.
    for (const step of this.times.keys()) if (step > plan.steps.length) this.times.delete(step);
  }

  /** Keeps the first moment each released step was seen done (done is sticky while the step stays released). */
  keepDone(evaluated: ReadonlyMap<number, StepTimes>): void {
    for (const [step, times] of evaluated) {
      const kept = this.times.get(step);
      if (kept === undefined || times.done_at === null || kept.released_at !== times.released_at) continue;
      if (kept.done_at === null || times.done_at < kept.done_at)
        this.times.set(step, { ...kept, done_at: times.done_at });
    }
  }

  /** Remembers `etag` as an answer served to `member` with its step released. */
  remember(member: string, etag: string): void {
    const kept = this.#etags.get(member);
    if (kept === undefined) this.#etags.set(member, etag);
    else if (typeof kept === 'string') {
      if (kept !== etag) this.#etags.set(member, [kept, etag]);
    } else if (kept.at(-1) !== etag && !kept.includes(etag)) {
      kept.push(etag);
      if (kept.length > ETAGS_PER_MEMBER) kept.shift();
    }
  }

  /** Whether `etag` is an answer `member` was served with its step released. */
  holds(member: string, etag: string): boolean {
    const kept = this.#etags.get(member);
    return kept === etag || (Array.isArray(kept) && kept.includes(etag));
  }

  /**
   * What is known of a released member: its last poll of any endpoint, and since when it holds
   * its release (its last platform-components poll got a remembered ETag; since the first poll
   * seen doing so). `current` is the ETag
   * of its answer now (in a revision that releases its step), remembered first.
   */
  facts(member: string, polls: ClusterPolls | undefined, current: string | null): ClusterFacts | undefined {
    if (current !== null) this.remember(member, current);
    if (polls === undefined) return undefined;
    const last = Math.max(polls.at['platform-components'], polls.at.namespaces, polls.at.rolebindings);
    const etag = polls.etag['platform-components'];
    const fetched = etag !== undefined && polls.at['platform-components'] > 0 && this.holds(member, etag);
    let fetchedAt: number | null = null;
    if (fetched) {
      fetchedAt = this.#fetchedSince.get(member) ?? polls.at['platform-components'];
      this.#fetchedSince.set(member, fetchedAt);
    } else {
      this.#fetchedSince.delete(member);
    }
    return { lastPollAt: last === 0 ? null : last, fetchedAt, report: null };
  }
}
