// When the rollouts are evaluated without anyone asking: after each publication, every second
// or so while a released step is not done yet (its members' polls, the offline clock and the
// progress deadline move without a publication), and at the end of the next soak. Each
// evaluation keeps what it saw (the first moment a step was done starts its soak) and is handed
// to the advancer, when there is one (ROLLOUT_AUTO_ADVANCE). One evaluation at a time; a
// publication during one asks for another right after it.
import type { Logger } from 'pino';
import type { EventLookup } from '../cluster-events.ts';
import type { PollLookup } from '../fleet-polls.ts';
import type { PublicationSource } from '../current-responses.ts';
import type { AdvanceOutcome } from './rollout-advancer.ts';
import type { EvaluatedRollouts, RolloutTracker } from './rollout-tracker.ts';

/** The poll records of a revision without rollouts: none are looked at. */
const NO_POLLS: PollLookup = { of: () => undefined };

/** The shortest pause between two evaluations while a step runs. */
export const RUNNING_TICK_MS = 1000;
/**
 * A pause at least this many times the last evaluation's length: on a fleet where one takes
 * 100 ms, they take at most 5 % of a core.
 */
const TICK_TO_WORK = 20;
/** After a soak ends, a little later: the status says `ready` from that moment on. */
const AFTER_SOAK_MS = 5;

export interface EvaluationDeps {
  tracker: RolloutTracker;
  source: PublicationSource;
  polls: () => Promise<PollLookup>;
  /** What the clusters reported: this replica's events, merged with the other replicas' when there are some. */
  events: () => Promise<EventLookup>;
  log: Logger;
  /** Releases the ready rollouts; absent without ROLLOUT_AUTO_ADVANCE. */
  advance?: (evaluated: EvaluatedRollouts) => Promise<Map<string, AdvanceOutcome>>;
  now?: () => number;
}

export class RolloutEvaluations {
  readonly #deps: EvaluationDeps;
  readonly #now: () => number;
  #running: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  readonly #unsubscribe: () => void;
  readonly #listeners = new Set<(evaluated: EvaluatedRollouts) => void>();

  constructor(deps: EvaluationDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#unsubscribe = deps.source.onPublish(() => this.soon());
    if (deps.source.published()) this.soon();
  }

  /** Called with every evaluation made (metrics, tests). */
  onEvaluated(listener: (evaluated: EvaluatedRollouts) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Evaluates now, or right after the evaluation under way. */
  soon(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#run().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        this.soon();
      }
    });
  }

  /** The evaluation under way, if any (tests). */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#unsubscribe();
  }

  async #run(): Promise<void> {
    const started = performance.now();
    let evaluated: EvaluatedRollouts | undefined;
    try {
      // No rollout: no poll records to gather (with PEERS, a request to every replica — before
      // this one even listens, at its first publication); the empty evaluation is still told.
      const serves = this.#deps.tracker.servesRollouts();
      const [polls, events] = serves
        ? await Promise.all([this.#deps.polls(), this.#deps.events()])
        : [NO_POLLS, undefined];
      evaluated = await this.#deps.tracker.evaluate(polls, undefined, events);
    } catch (error) {
      this.#deps.log.warn({ err: error }, 'evaluating the rollouts failed; trying again shortly');
      this.#schedule(RUNNING_TICK_MS * 5);
      return;
    }
    if (evaluated === undefined || this.#stopped) return;
    for (const listener of this.#listeners) listener(evaluated);
    const took = performance.now() - started;
    const outcomes = this.#deps.advance ? await this.#deps.advance(evaluated) : new Map<string, AdvanceOutcome>();
    if (this.#stopped) return;
    // Released: the publication asks for the next evaluation. Lost to another writer, or evaluated on a stale revision:
    // again now.
    if ([...outcomes.values()].some((o) => o === 'lost' || o === 'stale')) this.#again = true;
    const failed = [...outcomes.values()].some((o) => o === 'failed');
    this.#schedule(nextPause(evaluated, this.#now(), took, failed));
  }

  #schedule(ms: number | undefined): void {
    clearTimeout(this.#timer);
    if (ms === undefined || this.#stopped) return;
    this.#timer = setTimeout(() => this.soon(), ms);
    this.#timer.unref();
  }
}

/** How long until the next evaluation is worth making; undefined: only at the next publication. */
function nextPause(evaluated: EvaluatedRollouts, now: number, tookMs: number, failed: boolean): number | undefined {
  const tick = Math.max(RUNNING_TICK_MS, TICK_TO_WORK * tookMs);
  let pause: number | undefined = failed ? tick * 5 : undefined;
  const sooner = (ms: number): void => {
    pause = pause === undefined ? ms : Math.min(pause, ms);
  };
  for (const { status, steps } of evaluated.rollouts) {
    // Running: polls decide. Halted: a halt may lift as members come back (fewer offline than the budget).
    if (status.state === 'running' || status.state === 'halted') sooner(tick);
    for (const step of steps) {
      if (step.soakEndsAt !== null && step.soakEndsAt > now) sooner(Math.max(step.soakEndsAt - now + AFTER_SOAK_MS, 1));
    }
  }
  return pause;
}
