// The rollouts as the alert rules and the dashboard ask about them, one series per rollout
// (label `rollout`: at most one rollout per catalog entry, never a label per cluster): the
// steps released and the number of steps, whether it requires reports, its clusters by state, its state (one series per
// state, 1 for the one it is in), and since when it waits for nothing but a person's approval.
// Read from the last evaluation of the rollouts (serving/rollouts/rollout-evaluations.ts), which
// runs on every publication and every second while a step runs: a scrape walks no fleet. A
// rollout no longer in the last evaluation (deleted, completed) has no series any more.
import { type Gauge, Gauge as GaugeMetric, type Registry } from 'prom-client';
import { CLUSTER_STATES } from '../domain/rollouts/cluster-progress.ts';
import type { RolloutProgress } from '../domain/rollouts/rollout-progress.ts';
import { ROLLOUT_STATES } from '../domain/rollouts/rollout-status.ts';
import type { RolloutEvaluations } from '../serving/rollouts/rollout-evaluations.ts';
import type { EvaluatedRollouts } from '../serving/rollouts/rollout-tracker.ts';

type Evaluated = Pick<RolloutEvaluations, 'onEvaluated'>;

export class RolloutSeries {
  #last: EvaluatedRollouts | undefined;
  /**
   * Rollout id → the wave it waits on and when an evaluation first saw it wait, for a wait no
   * step dates (nothing released yet). Kept per replica: after a restart it starts again.
   */
  readonly #firstSeen = new Map<string, { wave: string; at: number }>();

  constructor(prefix: string, registers: Registry[]) {
    const rollouts = (): { rollouts: RolloutProgress[]; at: number } => ({
      rollouts: this.#last?.rollouts ?? [],
      at: this.#last?.at ?? 0,
    });
    const approvalSince = (progress: RolloutProgress, at: number): number => this.#approvalSince(progress, at);
    new GaugeMetric({
      name: `${prefix}rollout_released_steps`,
      help: "The steps of each rollout released so far (its record's `released`): the step it is at; 0 before any.",
      labelNames: ['rollout'] as const,
      registers,
      collect(this: Gauge<'rollout'>) {
        this.reset();
        for (const p of rollouts().rollouts) this.set({ rollout: p.rollout.id }, p.rollout.released);
      },
    });
    new GaugeMetric({
      name: `${prefix}rollout_steps`,
      help: 'The number of steps of each rollout (its waves cut in batches).',
      labelNames: ['rollout'] as const,
      registers,
      collect(this: Gauge<'rollout'>) {
        this.reset();
        for (const p of rollouts().rollouts) this.set({ rollout: p.rollout.id }, p.steps.length);
      },
    });
    new GaugeMetric({
      name: `${prefix}rollout_clusters`,
      help:
        'The clusters of each rollout by state: pending (step not released), released (not fetched yet), fetched, ' +
        'succeeded, failed, offline (no poll for ROLLOUT_OFFLINE_AFTER), pinned (its own pins win).',
      labelNames: ['rollout', 'state'] as const,
      registers,
      collect(this: Gauge<'rollout' | 'state'>) {
        this.reset();
        for (const p of rollouts().rollouts) {
          for (const state of CLUSTER_STATES) this.set({ rollout: p.rollout.id, state }, p.counts[state]);
        }
      },
    });
    new GaugeMetric({
      name: `${prefix}rollout_require_reports`,
      help:
        'Whether each rollout gates its steps on what the clusters report (require_reports: 1) ' +
        'or on what they fetched (0).',
      labelNames: ['rollout'] as const,
      registers,
      collect(this: Gauge<'rollout'>) {
        this.reset();
        for (const p of rollouts().rollouts) this.set({ rollout: p.rollout.id }, p.rollout.require_reports ? 1 : 0);
      },
    });
    new GaugeMetric({
      name: `${prefix}rollout_state`,
      help:
        'The state of each rollout: 1 for the one it is in (running, waiting, ready, halted, paused, complete), ' +
        '0 for the others. GET /api/v2/gitops/rollouts/{id} says why, in words.',
      labelNames: ['rollout', 'state'] as const,
      registers,
      collect(this: Gauge<'rollout' | 'state'>) {
        this.reset();
        for (const p of rollouts().rollouts) {
          const id = p.rollout.id;
          for (const state of ROLLOUT_STATES) this.set({ rollout: id, state }, p.status.state === state ? 1 : 0);
        }
      },
    });
    new GaugeMetric({
      name: `${prefix}rollout_approval_waiting_since_timestamp_seconds`,
      help:
        "While nothing but a person's approval of its next wave holds a rollout's next step back: since when " +
        "(the end of the last released step's soak; before the first step, when this replica first saw it wait), " +
        'in seconds since the epoch; 0 otherwise (a soak still running included).',
      labelNames: ['rollout'] as const,
      registers,
      collect(this: Gauge<'rollout'>) {
        this.reset();
        const { rollouts: all, at } = rollouts();
        for (const p of all) this.set({ rollout: p.rollout.id }, approvalSince(p, at) / 1000);
      },
    });
  }

  /** Reads every evaluation `evaluations` makes from now on; returns how to stop. */
  follow(evaluations: Evaluated): () => void {
    return evaluations.onEvaluated((evaluated) => {
      this.#last = evaluated;
      this.#keepFirstSeen(evaluated);
    });
  }

  /** Since when (ms) only the approval holds `progress` back, as of `at`; 0 when it does not. */
  #approvalSince(progress: RolloutProgress, at: number): number {
    const approval = progress.status.approval;
    if (approval === undefined) return 0;
    const since = approval.since ?? this.#firstSeen.get(progress.rollout.id)?.at ?? at;
    return since <= at ? since : 0;
  }

  #keepFirstSeen(evaluated: EvaluatedRollouts): void {
    const waiting = new Map<string, string>();
    for (const p of evaluated.rollouts) {
      const approval = p.status.approval;
      if (approval !== undefined && approval.since === null) waiting.set(p.rollout.id, approval.wave);
    }
    for (const [id, kept] of this.#firstSeen) if (waiting.get(id) !== kept.wave) this.#firstSeen.delete(id);
    for (const [id, wave] of waiting) if (!this.#firstSeen.has(id)) this.#firstSeen.set(id, { wave, at: evaluated.at });
  }
}
