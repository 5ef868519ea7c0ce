// A full disk under a crud write on the Git backend: 503 store_error saying so, nothing
// committed, no empty or cut-off object file left behind, and the next write after space
// returns succeeds. Runs on a small tmpfs mounted for the test, which takes root: as root it
// always runs (a mount that fails fails the test, saying why); as another user it is skipped,
// and its name says so.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { crudRepo, gitOut, send, startCrud } from '../../../helpers/crud.ts';
import { tempDir } from '../../../helpers/git-fixture.ts';

const uid = process.getuid?.();
const isRoot = uid === 0;
const NOT_ROOT =
  `skipped: not running as root (uid ${uid ?? 'unknown'}), and mounting the 6 MiB tmpfs this test ` +
  `fills needs root`;

let mountPoint: string | undefined;

beforeAll(() => {
  if (!isRoot) return;
  const dir = tempDir('disk-full-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    const why = String((error as { stderr?: Buffer }).stderr ?? error).trim();
    throw new Error(
      `running as root, yet mounting a 6 MiB tmpfs on ${dir} failed (${why}): the disk-full test needs it; a ` +
        `container needs the right to mount (CAP_SYS_ADMIN)`,
    );
  }
  mountPoint = dir;
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

const TITLE =
  'answers 503 "no space left on device", commits nothing, leaves no damaged object, and writes again once space ' +
  'returns';
it.skipIf(!isRoot)(isRoot ? TITLE : `${TITLE} (${NOT_ROOT})`, async () => {
  const dir = join(mountPoint!, 'repo');
  mkdirSync(dir);
  cpSync(crudRepo(), dir, { recursive: true });
  const service = await startCrud('git', {}, dir);
  try {
    const head = gitOut(dir, 'rev-parse', 'HEAD');
    const filler = join(mountPoint!, 'filler');
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
