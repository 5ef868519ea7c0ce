import { describe, expect, it } from 'vitest';
import { RetryBackoff } from '../src/store/retry-backoff.ts';

describe('RetryBackoff', () => {
  it('doubles the pause after each failure up to its ceiling, and starts over after a reset', () => {
    const backoff = new RetryBackoff(500, 3000);
    expect([backoff.take(), backoff.take(), backoff.take(), backoff.take()]).toEqual([500, 1000, 2000, 3000]);
    expect(backoff.peek()).toBe(3000);
    backoff.reset();
    expect(backoff.peek()).toBe(500);
  });
});
