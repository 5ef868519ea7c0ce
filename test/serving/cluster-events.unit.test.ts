// The events kept per replica (serving/cluster-events.ts) stay within their bounds — 64 a
// cluster, EVENTS_MEMORY in all, the oldest first — and keep a duplicate once; each cluster's
// allowance (serving/event-rate-limit.ts) is a bucket of EVENTS_BURST filling at EVENTS_RATE.
import { describe, expect, it } from 'vitest';
import { type FluxEvent } from '../../src/domain/events/flux-event.ts';
import { ClusterEvents, EVENTS_PER_CLUSTER } from '../../src/serving/cluster-events.ts';
import { EventRateLimit, EventsRateLimited } from '../../src/serving/event-rate-limit.ts';

const event = (n: number, message = `event ${n}`): FluxEvent => ({
  kind: 'HelmRelease',
  name: 'podinfo',
  namespace: 'flux-system',
  severity: 'info',
  timestamp: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}Z`,
  reason: 'UpgradeSucceeded',
  message,
  reportingController: 'helm-controller',
  metadata: { revision: String(n) },
});

describe('ClusterEvents', () => {
  it('keeps the last 64 events of a cluster, in the order received, and a duplicate once', () => {
    const events = new ClusterEvents(16 * 1024 * 1024);
    for (let n = 0; n < 100; n++) expect(events.keep('c1', event(n), n)).toBe('kept');
    expect(events.keep('c1', event(99), 200)).toBe('duplicate');
    const kept = events.of('c1')!;
    expect(kept).toHaveLength(EVENTS_PER_CLUSTER);
    expect(kept.map((e) => e.receivedAt)).toEqual(Array.from({ length: 64 }, (_, i) => 36 + i));
    expect(events.size).toBe(64);
  });

  it('stays within its bytes, dropping the oldest events of the whole fleet first', () => {
    const events = new ClusterEvents(64 * 1024);
    for (let n = 0; n < 2000; n++) events.keep(`c${n % 500}`, event(n, 'm'.repeat(200)), n);
    expect(events.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(events.size).toBeGreaterThan(40);
    expect(events.of('c0')).toBeUndefined();
    expect(events.of('c499')!.at(-1)!.receivedAt).toBe(1999);
    expect(events.lastKeptAt).toBe(1999);
  });
});

describe('EventRateLimit', () => {
  it('takes a burst at once, then EVENTS_RATE a second, each cluster on its own', () => {
    let now = 0;
    const limit = new EventRateLimit({ perSecond: 2, burst: 5 }, () => now);
    for (let i = 0; i < 5; i++) limit.take('c1');
    expect(() => limit.take('c1')).toThrow(EventsRateLimited);
    limit.take('c2');
    now += 500;
    limit.take('c1');
    try {
      limit.take('c1');
      expect.unreachable();
    } catch (error) {
      expect((error as EventsRateLimited).retryAfterSeconds).toBe(1);
    }
  });
});
