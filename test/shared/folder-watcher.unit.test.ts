// The one folder watcher of the service (src/shared/folder-watcher.ts), which the config repo's
// watcher and the TLS files' folder watch both use: a burst of events settles into one call,
// every event is told as it comes, and nothing is told once it is closed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderWatcher } from '../../src/shared/folder-watcher.ts';
import { tempDir } from '../helpers/temp-files.ts';

let watcher: FolderWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
});

/** A watcher of `folder` that counts its settled calls and keeps the events' paths. */
function watching(folder: string, depth?: number) {
  const events: string[] = [];
  let settledCount = 0;
  let waiting: (() => void) | undefined;
  watcher = new FolderWatcher([folder], {
    settleMs: 100,
    keepsProcessAlive: false,
    ...(depth === undefined ? {} : { depth }),
    event: (_event, path) => events.push(path),
    settled: () => {
      settledCount++;
      waiting?.();
    },
    failed: (error) => {
      throw error;
    },
  });
  const nextSettle = () => new Promise<void>((resolve) => (waiting = resolve));
  return { events, settled: () => settledCount, nextSettle };
}

describe('the folder watcher', () => {
  it('takes a burst of changes as one: one settled call for five files written at once', async () => {
    const folder = tempDir('folder-watcher-');
    const watch = watching(folder);
    await watcher!.ready;
    const first = watch.nextSettle();
    for (let i = 0; i < 5; i++) writeFileSync(join(folder, `file-${i}.yaml`), `n: ${i}\n`);
    await first;
    expect(new Set(watch.events)).toEqual(new Set([0, 1, 2, 3, 4].map((i) => join(folder, `file-${i}.yaml`))));
    // A second burst settles into the second call: the first burst made exactly one.
    const second = watch.nextSettle();
    writeFileSync(join(folder, 'file-0.yaml'), 'n: 10\n');
    await second;
    expect(watch.settled()).toBe(2);
  });

  it("with depth 0 watches the folder's own entries only", async () => {
    const folder = tempDir('folder-watcher-');
    mkdirSync(join(folder, 'below'));
    const watch = watching(folder, 0);
    await watcher!.ready;
    const settled = watch.nextSettle();
    writeFileSync(join(folder, 'below', 'deep.yaml'), 'n: 1\n');
    writeFileSync(join(folder, 'top.yaml'), 'n: 1\n');
    await settled;
    expect(watch.events).toContain(join(folder, 'top.yaml'));
    expect(watch.events).not.toContain(join(folder, 'below', 'deep.yaml'));
  });
});
