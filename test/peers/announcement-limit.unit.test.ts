// The allowance of announcements each peer has (src/peers/announcement-limit.ts), on a clock
// the test moves: 20 at once, 10 a second after that, each peer its own; and the revisions
// held for once, remembered so that none is held for twice.
import { describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_BURST, ANNOUNCEMENTS_PER_SECOND, AnnouncementLimit } from '../../src/peers/announcement-limit.ts';

describe('the announcements a peer may make', () => {
  it('are 20 at once, then 10 a second, for each peer apart', () => {
    let now = 1000;
    const limit = new AnnouncementLimit(() => now);
    const takes = (peer: string, n: number) => Array.from({ length: n }, () => limit.take(peer)).filter(Boolean).length;
    expect([ANNOUNCEMENT_BURST, ANNOUNCEMENTS_PER_SECOND]).toEqual([20, 10]);
    expect(takes('10.0.0.7', 25)).toBe(20);
    expect(takes('10.0.0.8', 25)).toBe(20);
    now += 500;
    expect(takes('10.0.0.7', 25)).toBe(5);
    now += 60_000;
    // The allowance comes back to the burst, no further.
    expect(takes('10.0.0.7', 25)).toBe(20);
  });

  it('remember the revisions held for', () => {
    const limit = new AnnouncementLimit();
    expect(limit.heldBefore('abc')).toBe(false);
    limit.holding('abc');
    expect(limit.heldBefore('abc')).toBe(true);
    for (let i = 0; i < 256; i++) limit.holding(`r${i}`);
    // 256 are remembered: the oldest is forgotten first.
    expect(limit.heldBefore('abc')).toBe(false);
    expect(limit.heldBefore('r0')).toBe(true);
  });
});
