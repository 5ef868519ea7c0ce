// The one retry policy of the store: exponential pauses up to a cap, jittered or not, bounded
// by a deadline or a number of retries. Its random numbers come from a seeded generator
// (RETRY_SEED=<seed> repeats a run) and its clock from the test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retry, RetryPolicy } from '../../src/shared/retry.ts';

const SEED = Number(process.env.RETRY_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`retry-policy: RETRY_SEED=${SEED}`);

/** Numbers in [0, 1) from the seed, one after the other. */
function seededRandom(seed: number, count = 1000): () => number {
  // Unbiased whole numbers, scaled: fast-check otherwise favours edge values, and its doubles
  // are spread over their bit patterns, not evenly over [0, 1).
  const numbers = fc.sample(fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })), { seed, numRuns: count });
  let at = 0;
  return () => numbers[at++ % numbers.length] / 2 ** 31;
}

describe('RetryPolicy', () => {
  it('without jitter, doubles the pause after each failure up to its ceiling, and starts over after a reset', () => {
    const backoff = new RetryPolicy({ firstMs: 500, maxMs: 3000 });
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([500, 1000, 2000, 3000]);
    expect(backoff.peek()).toBe(3000);
    expect(backoff.retries).toBe(4);
    backoff.reset();
    expect(backoff.peek()).toBe(500);
    expect(backoff.retries).toBe(0);
  });

  it(
    `with full jitter, draws each pause below a ceiling that doubles from the first and stops at the cap ` +
      `(RETRY_SEED=${SEED})`,
    () => {
      const random = seededRandom(SEED);
      const policy = new RetryPolicy({ firstMs: 15, maxMs: 500, jitter: true, random });
      const pauses = Array.from({ length: 200 }, () => policy.next()!);
      const ceilings = pauses.map((_, i) => Math.min(15 * 2 ** i, 500));
      pauses.forEach((pause, i) => {
        expect(pause, `pause ${i}`).toBeGreaterThanOrEqual(0);
        expect(pause, `pause ${i}`).toBeLessThan(ceilings[i]);
      });
      // Capped: from the sixth pause on (15 · 2^5 = 480, then 500) the ceiling no longer grows.
      expect(policy.peek()).toBe(500);
      // Spread over the range, not bunched at one end: two writers drawing these fall out of step.
      const capped = pauses.slice(10);
      expect(Math.min(...capped)).toBeLessThan(100);
      expect(Math.max(...capped)).toBeGreaterThan(400);
      expect(new Set(capped).size).toBeGreaterThan(100);
    },
  );

  it('a seeded source gives the same pauses again; two sources give different ones', () => {
    const pauses = (seed: number) => {
      const policy = new RetryPolicy({ firstMs: 15, maxMs: 500, jitter: true, random: seededRandom(seed) });
      return Array.from({ length: 20 }, () => policy.next());
    };
    expect(pauses(SEED)).toEqual(pauses(SEED));
    expect(pauses(SEED)).not.toEqual(pauses(SEED + 1));
  });

  it('gives no pause past the deadline: the last one ends at it, then none', () => {
    let now = 1_000_000;
    const policy = new RetryPolicy({ firstMs: 100, maxMs: 400, deadline: now + 1000, now: () => now });
    const taken: number[] = [];
    for (let pause = policy.next(); pause !== undefined; pause = policy.next()) {
      taken.push(pause);
      now += pause + 10; // each attempt takes 10 ms
    }
    expect(taken).toEqual([100, 200, 400, 270]);
    expect(now).toBeGreaterThanOrEqual(1_000_000 + 1000);
    expect(policy.next()).toBeUndefined();
  });

  it(`with jitter and a deadline, the pauses add up to no more than the time left (RETRY_SEED=${SEED})`, () => {
    let now = 0;
    const policy = new RetryPolicy({
      firstMs: 15,
      maxMs: 500,
      jitter: true,
      deadline: 10_000,
      random: seededRandom(SEED),
      now: () => now,
    });
    let attempts = 1;
    for (let pause = policy.next(); pause !== undefined; pause = policy.next()) {
      expect(now + pause).toBeLessThanOrEqual(10_000);
      now += pause + 40; // each attempt takes 40 ms
      attempts++;
    }
    expect(now).toBeGreaterThanOrEqual(10_000);
    // A write that keeps losing gets many tries in 10 s, not five.
    expect(attempts).toBeGreaterThan(20);
  });

  it('stops after maxRetries pauses', () => {
    const policy = new RetryPolicy({ firstMs: 200, maxMs: 1600, maxRetries: 4 });
    expect([policy.next(), policy.next(), policy.next(), policy.next(), policy.next()]).toEqual([
      200,
      400,
      800,
      1600,
      undefined,
    ]);
  });

  it('refuses a first pause of zero or a cap below it', () => {
    expect(() => new RetryPolicy({ firstMs: 0, maxMs: 10 })).toThrow(RangeError);
    expect(() => new RetryPolicy({ firstMs: 20, maxMs: 10 })).toThrow(RangeError);
  });
});

describe('retry(): the one retry loop', () => {
  const transient = new Error('not now');
  const lasting = new Error('not at all');
  const retryable = (error: unknown) => error === transient;

  it('tries again after each retryable failure, pausing by the policy, until an attempt returns', async () => {
    const pauses: number[] = [];
    const attempts: number[] = [];
    const value = await retry(
      async (n) => {
        attempts.push(n);
        if (n < 4) throw transient;
        return 'stored';
      },
      { firstMs: 1, maxMs: 4, retryable, pausing: (error, ms) => (expect(error).toBe(transient), pauses.push(ms)) },
    );
    expect(value).toBe('stored');
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(pauses).toEqual([1, 2, 4]);
  });

  it('throws a failure that is not retryable at once, without a pause', async () => {
    let tries = 0;
    const pausing = () => expect.unreachable('no pause for a lasting failure');
    await expect(
      retry(async () => (tries++, Promise.reject(lasting)), { firstMs: 1, maxMs: 1, retryable, pausing }),
    ).rejects.toBe(lasting);
    expect(tries).toBe(1);
  });

  it(
    'once the pauses are used up, throws what `exhausted` ' + 'makes of the last failure and the attempts made',
    async () => {
      const attempt = () => Promise.reject(transient);
      const exhausted = (error: unknown, attempts: number) =>
        new Error(`${(error as Error).message} after ${attempts} attempts`);
      await expect(retry(attempt, { firstMs: 1, maxMs: 1, maxRetries: 2, retryable, exhausted })).rejects.toThrow(
        'not now after 3 attempts',
      );
      // Without `exhausted`, the failure itself.
      await expect(retry(attempt, { firstMs: 1, maxMs: 1, maxRetries: 1, retryable })).rejects.toBe(transient);
    },
  );

  it('stops at the deadline: a deadline already passed allows no second attempt', async () => {
    let tries = 0;
    const attempt = () => (tries++, Promise.reject(transient));
    await expect(retry(attempt, { firstMs: 1, maxMs: 1, deadline: Date.now() - 1, retryable })).rejects.toBe(transient);
    expect(tries).toBe(1);
  });
});
