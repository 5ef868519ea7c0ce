// A write whose push the Git host refuses, on the real server against `git http-backend` on
// loopback: for its content (the host's checks of the pushed objects, here its size limit,
// receive.maxInputSize) the answer says so at once — one push, no "could not be reached", no
// Retry-After, nothing stored; for its update (a pre-receive hook declining) the answer names
// the host's refusal, also after one push. A host that cannot be reached still says that.
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CrudService, gitOut, send, startCrud } from '../../../helpers/crud.ts';

let service: CrudService;
let bare: string;
beforeAll(async () => {
  service = await startCrud('git-remote', { WRITE_TIMEOUT: '10s' });
  bare = service.prepared.remote!.server.path(service.prepared.remote!.name);
});
afterAll(() => service?.close());
afterEach(() => {
  // Exit status 5: it was not set (any more).
  spawnSync('git', ['--git-dir', bare, 'config', '--unset-all', 'receive.maxInputSize']);
});

const remoteHead = () => gitOut(process.cwd(), '--git-dir', bare, 'rev-parse', 'main');
const pushRetries = () =>
  service.logs.filter((line) => line.msg === 'the Git remote did not take the push; trying again').length;

describe('a push the Git host refuses', () => {
  it('for its content answers 503 saying so, after one push, and stores nothing', async () => {
    // Any pack is larger than this: the host's own check of what is pushed refuses it.
    gitOut(process.cwd(), '--git-dir', bare, 'config', 'receive.maxInputSize', '10');
    const before = { head: remoteHead(), served: service.store.published()!.snapshot.revision, retries: pushRetries() };
    const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { refused: 'yes' } });
    expect(res.status, res.text).toBe(503);
    expect(res.json().error).toBe('store_error');
    expect(res.json().message).toContain("the Git remote refused the commit's content, so nothing was stored");
    expect(res.json().message).toMatch(/unpack/);
    // The host's own words say which check refused it.
    expect(res.json().message).toContain('pack exceeds maximum allowed size');
    expect(res.json().message).not.toContain('could not be reached');
    expect(res.headers['retry-after']).toBeUndefined();
    expect(pushRetries()).toBe(before.retries);
    expect(remoteHead()).toBe(before.head);
    expect(service.store.published()!.snapshot.revision).toBe(before.served);
    // Once the host takes it again, the same write goes through.
    spawnSync('git', ['--git-dir', bare, 'config', '--unset-all', 'receive.maxInputSize']);
    const again = await send(service, 'PATCH', '/namespaces/team-b', { labels: { refused: 'no' } });
    expect(again.status, again.text).toBe(200);
    expect(remoteHead()).toBe(again.headers['x-config-revision']);
  });

  it('for its update (a pre-receive hook) names the refusal after one push, not an unreachable host', async () => {
    const hook = join(bare, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "changes to this branch go through review" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    try {
      const before = { head: remoteHead(), retries: pushRetries() };
      const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { hooked: 'yes' } });
      expect(res.status, res.text).toBe(503);
      expect(res.json().message).toContain('the Git remote refused the change, so nothing was stored');
      expect(res.json().message).toContain('pre-receive hook declined');
      expect(res.json().message).toContain('changes to this branch go through review');
      expect(res.json().message).not.toContain('could not be reached');
      expect(pushRetries()).toBe(before.retries);
      expect(remoteHead()).toBe(before.head);
    } finally {
      writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    }
  });
});
