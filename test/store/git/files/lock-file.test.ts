// A lock met on the way: the service's own lock whose process is gone (an earlier
// incarnation with this very process id, a zombie) is removed and taken at once, and said
// so; a live process's lock and a person's lock are waited for, never removed.
import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockFile, LockHeld, type StaleLock } from '../../../../src/store/git/files/lock-file.ts';
import { crudRepo } from '../../../helpers/crud.ts';
import { tagOf, TestProcesses } from '../../../helpers/proc-states.ts';
import { stoppedTag } from '../../../helpers/stopped-process.ts';

const linux = process.platform === 'linux';

const processes = new TestProcesses();
afterEach(() => processes.endAll());

/** A lock as the service leaves it: "<target>.lock", a hard link of locks/<tag>.<n>.<target>. */
function plantLock(gitdir: string, target: string, tag: string): { lock: string; identity: string } {
  const locks = join(gitdir, 'gitops-config-api', 'locks');
  mkdirSync(locks, { recursive: true });
  const identity = join(locks, `${tag}.1.${encodeURIComponent(target)}`);
  writeFileSync(identity, 'the content the stopped write was putting in place\n');
  const lock = join(gitdir, `${target}.lock`);
  linkSync(identity, lock);
  return { lock, identity };
}

async function takeAndRelease(gitdir: string, target: string, waitMs: number): Promise<StaleLock[]> {
  const stale: StaleLock[] = [];
  const lock = await LockFile.take(gitdir, target, { waitMs, onStaleLock: (s) => stale.push(s) });
  await lock.release();
  return stale;
}

describe("the service's own lock, left by a process that is gone", () => {
  it('an earlier incarnation with this very process id: removed when met, taken, and reported', async () => {
    const gitdir = join(crudRepo(), '.git');
    const planted = plantLock(gitdir, 'refs/heads/main', stoppedTag());
    const started = Date.now();
    expect(await takeAndRelease(gitdir, 'refs/heads/main', 2000)).toEqual([
      { lock: planted.lock, owner: stoppedTag() },
    ]);
    // At once, not after the wait.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(existsSync(planted.identity)).toBe(false);
    expect(existsSync(planted.lock)).toBe(false);
  });

  it.skipIf(!linux)('a zombie (dead, not yet reaped; needs /proc to tell): removed when met', async () => {
    const tag = tagOf(await processes.zombie());
    const gitdir = join(crudRepo(), '.git');
    plantLock(gitdir, 'index', tag);
    expect(await takeAndRelease(gitdir, 'index', 2000)).toEqual([{ lock: join(gitdir, 'index.lock'), owner: tag }]);
  });
});

describe('a lock that is not stale', () => {
  it.skipIf(!linux)(
    "a live process's lock (needs /proc for the start time): waited for, then LockHeld; the lock stays",
    async () => {
      const gitdir = join(crudRepo(), '.git');
      const planted = plantLock(gitdir, 'index', tagOf(await processes.live()));
      await expect(takeAndRelease(gitdir, 'index', 150)).rejects.toBeInstanceOf(LockHeld);
      expect(existsSync(planted.lock)).toBe(true);
      expect(existsSync(planted.identity)).toBe(true);
    },
  );

  it("a person's lock: waited for, then LockHeld; never touched", async () => {
    const gitdir = join(crudRepo(), '.git');
    writeFileSync(join(gitdir, 'index.lock'), 'a person is staging');
    await expect(takeAndRelease(gitdir, 'index', 150)).rejects.toBeInstanceOf(LockHeld);
    expect(readFileSync(join(gitdir, 'index.lock'), 'utf8')).toBe('a person is staging');
  });
});
