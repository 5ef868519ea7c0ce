// Work of lower priority than the store's queue (the history's walk of the fleet): the queue
// says when it is quiet, bounded so that such work is never starved, and the work runs in
// short slices, each only once the queue is quiet.
import { describe, expect, it } from 'vitest';
import type { Steps } from '../../../src/domain/steps.ts';
import { runInBackground } from '../../../src/store/runner/event-loop.ts';
import { SerialQueue } from '../../../src/store/runner/serial-queue.ts';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('SerialQueue.quiet', () => {
  it('resolves at once when nothing is queued, and once the last task ends when something is', async () => {
    const queue = new SerialQueue();
    let quiet = false;
    await queue.quiet(60_000).then(() => (quiet = true));
    expect(quiet).toBe(true);

    let release!: () => void;
    const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const second = queue.run(() => 'done');
    quiet = false;
    const waited = queue.quiet(60_000).then(() => (quiet = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(quiet).toBe(false);
    release();
    await first;
    await second;
    await waited;
    expect(quiet).toBe(true);
  });

  it('resolves after its bound while a task still runs, and counts a failed task as ended', async () => {
    const queue = new SerialQueue();
    let release!: () => void;
    const running = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const started = performance.now();
    await queue.quiet(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    release();
    await running;
    await queue.run(() => Promise.reject(new Error('refused'))).catch(() => undefined);
    let quiet = false;
    await queue.quiet(60_000).then(() => (quiet = true));
    expect(quiet).toBe(true);
  });
});

describe('SerialQueue.quietFor', () => {
  it('does not take a short gap between two tasks for quiet, and a long one does', async () => {
    const queue = new SerialQueue();
    await queue.run(() => 'first');
    let quiet = false;
    const waited = queue.quietFor(40, 60_000).then(() => (quiet = true));
    // Another task comes 10 ms after the first ended and runs for 10 ms: the gap is too short.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await queue.run(() => new Promise((resolve) => setTimeout(resolve, 10)));
    await new Promise((resolve) => setTimeout(resolve, 25));
    expect(quiet).toBe(false);
    await waited;
    expect(quiet).toBe(true);
  });

  it('gives up waiting after its bound', async () => {
    const queue = new SerialQueue();
    let release!: () => void;
    const running = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const started = performance.now();
    await queue.quietFor(5, 30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    release();
    await running;
  });
});

describe('runInBackground', () => {
  function* work(count: number, ms: number, ran: number[]): Steps<number> {
    for (let i = 0; i < count; i++) {
      busy(ms);
      ran.push(i);
      yield;
    }
    return count;
  }

  it('takes no step before the queue is quiet', async () => {
    const ran: number[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const result = runInBackground(work(5, 0, ran), () => gate);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([]);
    open();
    expect(await result).toBe(5);
    expect(ran).toEqual([0, 1, 2, 3, 4]);
  });

  it('asks the queue again after each slice of its length', async () => {
    const ran: number[] = [];
    let asked = 0;
    const result = await runInBackground(
      work(30, 1, ran),
      () => {
        asked++;
        return Promise.resolve();
      },
      3,
    );
    expect(result).toBe(30);
    // 30 steps of 1 ms in slices of 3 ms: about ten slices, each after asking.
    expect(asked).toBeGreaterThanOrEqual(8);
  });
});
