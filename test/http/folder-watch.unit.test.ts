// The TLS files' folder watch (src/http/transport/folder-watch.ts): the service reads the files
// before the watch is in place, so a file replaced in between must still be noticed.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFolders } from '../../src/http/transport/folder-watch.ts';
import { tempDir } from '../helpers/temp-files.ts';

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

const options = { settleMs: 50, recheckMs: 60_000, log: pino({ level: 'silent' }) };

describe('the folder watch of the TLS files', () => {
  it('looks once its watch is in place: a file replaced before then is not left for the periodic check', async () => {
    const folder = tempDir('folder-watch-');
    const cert = join(folder, 'tls.crt');
    writeFileSync(cert, 'first\n');
    let calls = 0;
    const called = new Promise<void>((resolve) => {
      stop = watchFolders(
        [cert],
        () => {
          calls++;
          resolve();
        },
        options,
      );
    });
    // Replaced before the watch's first look at the folder: no event will ever tell of it.
    writeFileSync(`${cert}.tmp`, 'second\n');
    renameSync(`${cert}.tmp`, cert);
    await called;
    expect(calls).toBeGreaterThanOrEqual(1);
  });

  it('calls nothing once stopped, even when the watch becomes ready afterwards', async () => {
    const folder = tempDir('folder-watch-');
    let calls = 0;
    stop = watchFolders([join(folder, 'tls.crt')], () => calls++, options);
    stop();
    stop = undefined;
    // Another watch of the same folder, started after, is ready after the first one would have been.
    await new Promise<void>((resolve) => {
      stop = watchFolders([join(folder, 'tls.key')], resolve, options);
    });
    expect(calls).toBe(0);
  });
});
