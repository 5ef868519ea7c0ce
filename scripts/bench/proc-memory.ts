// Memory of another process as the kernel sees it (Linux /proc). The service's own
// process.memoryUsage() is not reachable from outside, and RSS is what a pod's limit counts.
import { readFileSync } from 'node:fs';

export interface ProcMemory {
  /** VmRSS: resident now, bytes. */
  rss: number;
  /** VmHWM: the peak resident size so far, bytes. */
  hwm: number;
}

/** Undefined when /proc is not there (not Linux) or the process has gone. */
export function procMemory(pid: number): ProcMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}
