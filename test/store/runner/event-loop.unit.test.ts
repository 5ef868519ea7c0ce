// Computations in slices: they run to their end, let the event loop turn once a slice has
// run, and two running at once share the loop's slice rather than take one each.
import { describe, expect, it } from 'vitest';
import type { Steps } from '../../../src/domain/steps.ts';
import { runInSlices, SLICE_MS, SliceTimer } from '../../../src/store/runner/event-loop.ts';

/** Holds the thread for `ms`, as a step of real work does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Counts the event loop's turns: a timer that fires once an iteration, for as long as it runs. */
function turnCounter(): { readonly turn: number; stop(): void } {
  let turn = 0;
  let timer = setTimeout(function tick() {
    turn++;
    timer = setTimeout(tick, 0);
  }, 0);
  return {
    get turn() {
      return turn;
    },
    stop: () => clearTimeout(timer),
  };
}

/** `count` steps of `ms` each, every one noted with the turn it ran in. */
function* steps(count: number, ms: number, turns: { readonly turn: number }, ran: number[]): Steps<number> {
  for (let i = 0; i < count; i++) {
    busy(ms);
    ran.push(turns.turn);
    yield;
  }
  return count;
}

function mostInOneTurn(ran: number[]): number {
  const perTurn = new Map<number, number>();
  for (const turn of ran) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
  return Math.max(...perTurn.values());
}

describe('computations in slices', () => {
  it('run every step and answer with the value', async () => {
    const turns = turnCounter();
    const ran: number[] = [];
    expect(await runInSlices(steps(50, 0, turns, ran))).toBe(50);
    turns.stop();
    expect(ran).toHaveLength(50);
  });

  it('let the loop turn once a slice has run', async () => {
    const turns = turnCounter();
    const ran: number[] = [];
    await runInSlices(steps(60, 1, turns, ran));
    turns.stop();
    // 60 ms of steps: at least a few turns, none holding much more than a slice.
    expect(new Set(ran).size).toBeGreaterThanOrEqual(4);
    expect(mostInOneTurn(ran)).toBeLessThanOrEqual(SLICE_MS + 1);
  });

  it('running at once, share one slice per turn rather than take one each', async () => {
    const turns = turnCounter();
    const ran: number[] = [];
    await Promise.all([
      runInSlices(steps(80, 1, turns, ran)),
      runInSlices(steps(80, 1, turns, ran)),
      runInSlices(steps(80, 1, turns, ran)),
    ]);
    turns.stop();
    // Each taking its own slice would run some 3 x 10 one-millisecond steps in a turn.
    expect(mostInOneTurn(ran)).toBeLessThanOrEqual(SLICE_MS + 3);
  });

  it('work written with awaits turns as often', async () => {
    const turns = turnCounter();
    const ran: number[] = [];
    const work = async () => {
      const slices = new SliceTimer();
      for (let i = 0; i < 60; i++) {
        busy(1);
        ran.push(turns.turn);
        await slices.turnIfDue();
      }
    };
    await Promise.all([work(), work()]);
    turns.stop();
    expect(mostInOneTurn(ran)).toBeLessThanOrEqual(SLICE_MS + 2);
  });
});
