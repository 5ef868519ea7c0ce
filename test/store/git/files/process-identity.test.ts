// Whether the process that left a lock or a journalled write still runs, judged by its
// incarnation rather than its process id: a process that is dead but not yet reaped (a
// zombie) still answers kill(pid, 0), and a process id comes back for another process (in a
// container, often for the restarted service itself).
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import {
  formatTag,
  isAlive,
  ownIdentity,
  ownTag,
  parseTag,
  procStartTime,
} from '../../../../src/store/git/files/process-identity.ts';
import { procStat, tagOf, TestProcesses } from '../../../helpers/proc-states.ts';

const linux = process.platform === 'linux';

const processes = new TestProcesses();
afterEach(() => processes.endAll());

describe('a tag', () => {
  it("names this process's incarnation, and reads back", () => {
    const identity = parseTag(ownTag());
    expect(identity).toEqual(ownIdentity());
    expect(identity?.pid).toBe(process.pid);
    expect(identity?.nonce).toMatch(/^[0-9a-f]{12}$/);
    if (linux) expect(identity?.start).toMatch(/^\d+$/);
    if (linux) expect(identity?.boot).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reads the older form, a bare process id', () => {
    expect(parseTag('4242')).toEqual({ pid: 4242, start: '', boot: '', nonce: '' });
    expect(parseTag('not-a-tag')).toBeUndefined();
  });
});

describe.skipIf(!linux)('liveness (needs /proc: elsewhere it falls back to the process id alone)', () => {
  it('this very process is alive', async () => {
    expect(await isAlive(ownTag())).toBe(true);
  });

  it('this process id with an older start time, or another nonce, is a predecessor that is gone', async () => {
    const me = ownIdentity();
    expect(await isAlive(formatTag({ ...me, start: String(Number(me.start) - 1) }))).toBe(false);
    expect(await isAlive(formatTag({ ...me, nonce: me.nonce === 'dead' ? 'beef' : 'dead' }))).toBe(false);
    // The older form names only the id: this process's own id there is a predecessor's.
    expect(await isAlive(String(process.pid))).toBe(false);
  });

  it('a zombie is dead, though kill(pid, 0) still finds it', async () => {
    const pid = await processes.zombie();
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(await isAlive(tagOf(pid))).toBe(false);
    expect(await isAlive(String(pid))).toBe(false);
  });

  it('a process id now used by another process (another start time) is gone; the process itself is alive', async () => {
    const pid = await processes.live();
    expect(await isAlive(tagOf(pid))).toBe(true);
    expect(await isAlive(tagOf(pid, String(Number(procStartTime(procStat(pid))) - 100)))).toBe(false);
    expect(await isAlive(String(pid))).toBe(true);
  });

  it('a process of another boot is gone, whatever runs under its id now', async () => {
    const pid = await processes.live();
    expect(await isAlive(formatTag({ ...parseTag(tagOf(pid))!, boot: '0123456789abcdef' }))).toBe(false);
  });

  it('a process id nothing uses is gone', async () => {
    const child = spawn('true');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await isAlive(tagOf(child.pid!, '1'))).toBe(false);
  });
});
