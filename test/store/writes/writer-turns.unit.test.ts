// When a writer leaves room for another writer of the same store: only after the store moved
// under one of its writes, only once it has won every race for a second since, and for about
// one commit's duration. The clock is the test's; the random numbers are seeded
// (TURNS_SEED=<seed> repeats a run).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WriterTurns } from '../../../src/store/writes/writer-turns.ts';

const SEED = Number(process.env.TURNS_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`writer-turns: TURNS_SEED=${SEED}`);

function seededRandom(seed: number): () => number {
  const numbers = fc.sample(fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })), { seed, numRuns: 1000 });
  let at = 0;
  return () => numbers[at++ % numbers.length] / 2 ** 31;
}

function turns() {
  const clock = { now: 1_000_000 };
  return { clock, turns: new WriterTurns({ now: () => clock.now, random: seededRandom(SEED) }) };
}

describe('WriterTurns', () => {
  it('a writer whose store never moved under it never waits', () => {
    const { clock, turns: t } = turns();
    for (let i = 0; i < 100; i++) {
      t.landed(100);
      clock.now += 100;
      expect(t.roomBeforeWrite()).toBe(0);
    }
  });

  it(
    `after a move: no room while the writer is not winning, then half to one and a half commits' time once a second ` +
      `(TURNS_SEED=${SEED})`,
    () => {
      const { clock, turns: t } = turns();
      t.landed(100);
      t.moved();
      const rooms: { at: number; room: number }[] = [];
      // Ten seconds of writes landing back to back, 100 ms each, plus whatever room was left.
      const end = clock.now + 10_000;
      while (clock.now < end) {
        const room = t.roomBeforeWrite();
        if (room > 0) rooms.push({ at: clock.now, room });
        clock.now += room + 100;
        t.landed(100);
      }
      expect(rooms.length).toBeGreaterThanOrEqual(8);
      expect(rooms.length).toBeLessThanOrEqual(10);
      for (const { room } of rooms) {
        expect(room).toBeGreaterThanOrEqual(50);
        expect(room).toBeLessThan(150);
      }
      for (let i = 1; i < rooms.length; i++) expect(rooms[i].at - rooms[i - 1].at).toBeGreaterThanOrEqual(1000);
      // The first came a second after the move, not before.
      expect(rooms[0].at - (end - 10_000)).toBeGreaterThanOrEqual(1000);
    },
  );

  it('a store that keeps moving under the writer means it is losing: no room then', () => {
    const { clock, turns: t } = turns();
    t.landed(100);
    for (let i = 0; i < 50; i++) {
      t.moved();
      clock.now += 300;
      expect(t.roomBeforeWrite()).toBe(0);
    }
  });

  it('forgets the other writer 30 s after the store last moved', () => {
    const { clock, turns: t } = turns();
    t.landed(100);
    t.moved();
    clock.now += 29_000;
    expect(t.roomBeforeWrite()).toBeGreaterThan(0);
    clock.now += 1_000;
    expect(t.roomBeforeWrite()).toBe(0);
  });

  it('keeps the room between 10 ms and 2 s, whatever a commit took', () => {
    const { clock, turns: t } = turns();
    t.landed(0);
    t.moved();
    clock.now += 1000;
    const small = t.roomBeforeWrite();
    expect(small).toBeGreaterThanOrEqual(5);
    expect(small).toBeLessThan(15);
    t.landed(60_000);
    clock.now += 1000;
    const large = t.roomBeforeWrite();
    expect(large).toBeGreaterThanOrEqual(1000);
    expect(large).toBeLessThan(3000);
  });
});
