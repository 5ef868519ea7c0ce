// ROLLOUT_AUTO_ADVANCE: the service releases the next step of a rollout whose gates passed,
// by the ordinary write path (store/store-runner.ts write), as a commit whose message names the
// evidence (domain/rollouts/rollout-status.ts: NextRelease). Each release is conditional on the
// rollout record's ETag as evaluated: when another writer (a person, another replica, another
// process on the same remote) changed the record first, the write is refused with
// precondition_failed and nothing is stored; the next evaluation starts from what that writer
// made. So two writers never release one step twice. Only a `ready` rollout is advanced: never a
// halted, paused, waiting or running one, and never by force.
import type { Logger } from 'pino';
import type { RolloutProgress } from '../../domain/rollouts/rollout-progress.ts';
import { recordEtag } from '../../domain/writes/record-etag.ts';
import type { WriteAuthor } from '../../domain/writes/write-request.ts';
import { describeError, WriteRefused } from '../../store/errors.ts';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { EvaluatedRollouts } from './rollout-tracker.ts';

/** Who the service's own releases are by, in the audit trail and the commit. */
export const ADVANCER: WriteAuthor = Object.freeze({ kind: 'service', name: 'rollout-auto-advance' });

export type AdvanceOutcome = 'released' | 'lost' | 'failed' | 'stale';

export class RolloutAdvancer {
  readonly #store: Pick<StoreRunner, 'write' | 'published'>;
  readonly #log: Logger;

  constructor(store: Pick<StoreRunner, 'write' | 'published'>, log: Logger) {
    this.#store = store;
    this.#log = log;
  }

  /** Releases the next step of each ready rollout, one after the other; what became of each. */
  async advance(evaluated: EvaluatedRollouts): Promise<Map<string, AdvanceOutcome>> {
    const outcomes = new Map<string, AdvanceOutcome>();
    for (const progress of evaluated.rollouts) {
      if (progress.status.state !== 'ready' || progress.status.next === undefined) continue;
      // Evaluated on a revision no longer served: the plan (its steps' members) may have moved; evaluate again.
      if (this.#store.published()?.snapshot.revision !== evaluated.revision) {
        outcomes.set(progress.rollout.id, 'stale');
        continue;
      }
      outcomes.set(progress.rollout.id, await this.#release(progress));
    }
    return outcomes;
  }

  async #release(progress: RolloutProgress): Promise<AdvanceOutcome> {
    const { rollout } = progress;
    const next = progress.status.next!;
    const etag = recordEtag(rollout);
    const log = { rollout: rollout.id, step: next.released, wave: next.step.wave, if_match: etag };
    try {
      const result = await this.#store.write({
        message: next.message,
        role: 'write',
        who: ADVANCER,
        writes: [
          {
            kind: 'merge-patch',
            collection: 'rollouts',
            id: rollout.id,
            patch: { released: next.released },
            ifMatch: etag,
            role: 'write',
            who: ADVANCER,
          },
        ],
      });
      this.#log.info({ ...log, revision: result.revisionAfter }, `rollout step released: ${next.message}`);
      return 'released';
    } catch (error) {
      if (error instanceof WriteRefused && error.refusal.reason === 'precondition_failed') {
        this.#log.info(
          log,
          `rollout ${rollout.id} changed before its step ${next.released} was released here (another writer); ` +
            `evaluated again`,
        );
        return 'lost';
      }
      const refusal = error instanceof WriteRefused ? error.refusal : undefined;
      this.#log.warn(
        { ...log, error: describeError(error), reason: refusal?.reason },
        `rollout ${rollout.id}: releasing step ${next.released} failed`,
      );
      return 'failed';
    }
  }
}
