// What the event-loop probe wrote, read back (scripts/bench/probe-stretches.ts): the longest
// wall and CPU stretch that ended within a window, each its own maximum.
import { describe, expect, it } from 'vitest';
import { longestStretch } from '../../scripts/bench/probe-stretches.ts';

const line = (at: number, wall: number, cpu: number) => JSON.stringify({ at: String(at), wall_ms: wall, cpu_ms: cpu });

describe('the longest stretch of the probe', () => {
  const text = [line(100, 40, 2), line(200, 12, 11), line(300, 7, 30), line(400, 90, 80), ''].join('\n');

  it('takes the longest wall and the longest CPU time that ended within the window, ends included', () => {
    expect(longestStretch(text, 200n, 300n)).toEqual({ wallMs: 12, cpuMs: 30 });
    expect(longestStretch(text, 100n, 400n)).toEqual({ wallMs: 90, cpuMs: 80 });
  });

  it('is 0 when no stretch ended within the window, or the probe wrote nothing', () => {
    expect(longestStretch(text, 101n, 199n)).toEqual({ wallMs: 0, cpuMs: 0 });
    expect(longestStretch('', 0n, 1000n)).toEqual({ wallMs: 0, cpuMs: 0 });
  });
});
