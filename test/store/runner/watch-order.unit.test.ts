// The runner asks its backend to watch only once the first load has ended: a file watcher's
// first scan (a stat of every file) would otherwise share the start's thread and file reads.
// A runner stopped before its first load ended never starts the watch.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { KnownRevisions, LoadResult } from '../../../src/store/backend.ts';
import { MemoryBackend } from '../../../src/store/backends/memory/memory-backend.ts';
import { StoreRunner } from '../../../src/store/runner/store-runner.ts';
import { asSeedFile } from '../../helpers/fixture-data.ts';

/** The memory backend, saying in `steps` when its loads begin and end and when it is asked to watch. */
class RecordingBackend extends MemoryBackend {
  readonly steps: string[] = [];
  /** Holds the next load until released. */
  hold: Promise<void> | undefined;

  override async load(known: KnownRevisions): Promise<LoadResult> {
    this.steps.push('load begins');
    await this.hold;
    const result = await super.load(known);
    this.steps.push('load ends');
    return result;
  }

  override watch(): void {
    this.steps.push('watch');
  }
}

const runners: StoreRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});

describe('the watch of a store', () => {
  it('starts once the first load has ended', async () => {
    const backend = new RecordingBackend({ seedFile: asSeedFile() });
    const runner = new StoreRunner(backend, { log: pino({ level: 'silent' }) });
    runners.push(runner);
    await runner.start();
    await runner.idle();
    expect(backend.steps).toEqual(['load begins', 'load ends', 'watch']);
  });

  it('is not started by a runner stopped before its first load ended', async () => {
    const backend = new RecordingBackend({ seedFile: asSeedFile() });
    let release!: () => void;
    backend.hold = new Promise((resolve) => (release = resolve));
    const runner = new StoreRunner(backend, { log: pino({ level: 'silent' }) });
    const started = runner.start();
    const stopped = runner.stop();
    release();
    await started;
    await stopped;
    expect(backend.steps).not.toContain('watch');
  });
});
