// Who left a file of this service in a Git directory (a lock, a journalled write, a temporary
// file), and whether that process still runs. A process id alone cannot say: a killed process
// keeps its id, and still answers kill(pid, 0), until its parent reaps it (a zombie; in a
// container whose init does not reap, for good), and a restarted service in a container
// often gets the very id its crashed predecessor had. So the files are named after the
// process's incarnation — its id, its start time (in clock ticks since boot, field 22 of
// /proc/<pid>/stat), the boot (/proc/sys/kernel/random/boot_id) and a random nonce — as one
// tag: "<pid>-<start>-<boot>-<nonce>".
//
// An owner is alive only if it is this very process (same id, start and nonce), or a process
// of the same boot with that id, not a zombie, that started at that very tick. Processes are
// looked up in the process table this process sees: the service is its repository's only
// writer (one container), so an owner not found there is gone.
//
// Without /proc (macOS, the BSDs) the start and boot are left empty and liveness falls back
// to the process id alone (kill(pid, 0)): a zombie or a reused id is then taken for alive,
// and a lock it left waits for a person to remove it, as the error message says. Tags of
// that form (and the bare "<pid>" an earlier version wrote) are judged the same way.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface ProcessIdentity {
  pid: number;
  /** Clock ticks after boot at which the process started; empty when unknown. */
  start: string;
  /** The first 16 hex digits of the boot id; empty when unknown. */
  boot: string;
  /** Random per process; empty in a bare "<pid>" tag. */
  nonce: string;
}

/** The part of a file name that holds a tag; the pid alone is the older form. */
export const TAG_PATTERN = '\\d+(?:-\\d*-[0-9a-f]*-[0-9a-f]+)?';

let own: ProcessIdentity | undefined;

/** This process's identity, worked out once. */
export function ownIdentity(): ProcessIdentity {
  own ??= {
    pid: process.pid,
    start: procStartTime(readText(`/proc/${process.pid}/stat`)) ?? '',
    boot: (readText('/proc/sys/kernel/random/boot_id') ?? '').replace(/[^0-9a-f]/g, '').slice(0, 16),
    nonce: randomBytes(6).toString('hex'),
  };
  return own;
}

/** This process's tag, for the names of the files it leaves. */
export function ownTag(): string {
  return formatTag(ownIdentity());
}

export function formatTag(identity: ProcessIdentity): string {
  return `${identity.pid}-${identity.start}-${identity.boot}-${identity.nonce}`;
}

export function parseTag(tag: string): ProcessIdentity | undefined {
  const match = /^(\d+)(?:-(\d*)-([0-9a-f]*)-([0-9a-f]+))?$/.exec(tag);
  if (!match) return undefined;
  return { pid: Number(match[1]), start: match[2] ?? '', boot: match[3] ?? '', nonce: match[4] ?? '' };
}

/** Whether the process that wrote `tag` still runs (a tag that is no tag: taken for alive, never removed). */
export async function isAlive(tag: string): Promise<boolean> {
  const owner = parseTag(tag);
  if (!owner) return true;
  const me = ownIdentity();
  // Another boot: nothing of it runs any more.
  if (owner.boot && me.boot && owner.boot !== me.boot) return false;
  // This process's id: it is this process only if it is this incarnation.
  if (owner.pid === me.pid) return owner.nonce === me.nonce && owner.start === me.start;
  if (!me.start) return pidAnswers(owner.pid);
  const stat = await readFile(`/proc/${owner.pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return false;
  // Dead, not yet reaped (Z), or being reaped (X).
  if (/^[ZX]/.test(afterCommand(stat))) return false;
  return !owner.start || procStartTime(stat) === owner.start;
}

/** The fields after the command name of a /proc/<pid>/stat line (the name may hold spaces and parentheses). */
function afterCommand(stat: string): string {
  return stat.slice(stat.lastIndexOf(')') + 2);
}

/** Field 22, the start time, of a /proc/<pid>/stat line. */
export function procStartTime(stat: string | undefined): string | undefined {
  if (stat === undefined) return undefined;
  // Fields from 3 on follow the command name: field 22 is the 20th of them.
  return afterCommand(stat).split(' ')[19];
}

function pidAnswers(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
