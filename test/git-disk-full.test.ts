// A full disk under a crud write on the Git backend: 503 store_error saying so, nothing
// committed, no empty or cut-off object file left behind, and the next write after space
// returns succeeds. Runs on a small tmpfs mounted for the test (needs the right to mount;
// skipped with a note where that is not permitted).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { crudRepo, gitOut, send, startCrud } from './helpers/crud.ts';
import { tempDir } from './helpers/git-fixture.ts';

let mountPoint: string | undefined;
let whyNot = '';

beforeAll(() => {
  const dir = tempDir('disk-full-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir], { stdio: 'pipe' });
    mountPoint = dir;
  } catch (error) {
    whyNot = String((error as { stderr?: Buffer }).stderr ?? error).trim();
  }
});

afterAll(() => {
  if (mountPoint) execFileSync('umount', ['-l', mountPoint]);
});

/** Fills the file system until it refuses another byte. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // The last partial block too.
  const small = openSync(`${path}.tail`, 'w');
  try {
    for (;;) writeSync(small, Buffer.alloc(512, 1));
  } catch {
    // full
  } finally {
    closeSync(small);
  }
}

it('answers 503 "no space left on device", commits nothing, leaves no damaged object, and writes again once space returns', async (context) => {
  if (!mountPoint) {
    context.skip(`mounting a small tmpfs is not permitted here (${whyNot}); the disk-full test needs it`);
    return;
  }
  const dir = join(mountPoint, 'repo');
  mkdirSync(dir);
  cpSync(crudRepo(), dir, { recursive: true });
  const service = await startCrud('git', {}, dir);
  try {
    const head = gitOut(dir, 'rev-parse', 'HEAD');
    const filler = join(mountPoint, 'filler');
    fill(filler);
    // A body big enough that its blob cannot fit in what is left.
    const res = await send(service, 'PATCH', '/namespaces/team-a', { annotations: { note: 'x'.repeat(20_000) } });
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ error: 'store_error' });
    expect(res.json().message).toMatch(/no space left on device/);
    rmSync(filler);
    rmSync(`${filler}.tail`);
    expect(gitOut(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    expect(execFileSync('find', [join(dir, '.git/objects'), '-type', 'f', '-empty'], { encoding: 'utf8' })).toBe('');
    expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
    const again = await send(service, 'PATCH', '/namespaces/team-a', { annotations: { note: 'x'.repeat(20_000) } });
    expect(again.status).toBe(200);
    expect(gitOut(dir, 'log', '-1', '--format=%s')).toBe('namespaces: update team-a');
    expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
    expect(gitOut(dir, 'status', '--porcelain')).toBe('');
  } finally {
    await service.close();
  }
});
