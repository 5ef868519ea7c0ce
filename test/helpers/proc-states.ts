// Processes in the states a lock's owner can be in, for the liveness tests (Linux: read
// from /proc): alive, dead but not yet reaped (a zombie), or gone.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { formatTag, ownIdentity, procStartTime } from '../../src/store/git/files/process-identity.ts';
import { eventually } from './http.ts';

/** The /proc/<pid>/stat line; undefined when there is no such process. */
export function procStat(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The state letter ("Z": dead, not yet reaped), read after the command name (which may hold spaces). */
export function processState(pid: number): string | undefined {
  const stat = procStat(pid);
  return stat?.slice(stat.lastIndexOf(')') + 2)[0];
}

/** The tag the process `pid` would have given itself (its start time, this boot), with some nonce. */
export function tagOf(pid: number, start = procStartTime(procStat(pid))!): string {
  return formatTag({ pid, start, boot: ownIdentity().boot, nonce: 'abc123' });
}

/** Child processes started by a test, ended by `endAll` (in afterEach). */
export class TestProcesses {
  #children: ChildProcess[] = [];

  /** A process that stays alive until endAll. */
  async live(): Promise<number> {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    this.#children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    return child.pid!;
  }

  /**
   * A zombie: a shell starts a child that exits a moment later, then becomes `sleep`, which
   * never waits for it; the child stays unreaped until endAll.
   */
  async zombie(): Promise<number> {
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    this.#children.push(parent);
    const pid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))),
    );
    await eventually(() => processState(pid) === 'Z', 5000, 5);
    return pid;
  }

  endAll(): void {
    for (const child of this.#children) child.kill('SIGKILL');
    this.#children = [];
  }
}
