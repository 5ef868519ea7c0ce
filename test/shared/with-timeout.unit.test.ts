// withTimeout (src/shared/with-timeout.ts): the one bounded wait of the service — the first
// revision at start, the step before publishing, the DNS look for the other replicas.
import { describe, expect, it, vi } from 'vitest';
import { withTimeout } from '../../src/shared/with-timeout.ts';

describe('withTimeout', () => {
  it("answers with the work's value when it comes in time, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    try {
      const answer = withTimeout(Promise.resolve('revision'), 1000, 'late');
      await expect(answer).resolves.toBe('revision');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers `late` once the time is up, the work still under way', async () => {
    vi.useFakeTimers();
    try {
      const never = new Promise<string>(() => undefined);
      const answer = withTimeout(never, 1000, undefined);
      await vi.advanceTimersByTimeAsync(1000);
      await expect(answer).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes on a failure of the work that comes in time, and clears its timer', async () => {
    vi.useFakeTimers();
    try {
      const failure = new Error('the step failed');
      await expect(withTimeout(Promise.reject(failure), 1000, 'late')).rejects.toBe(failure);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
