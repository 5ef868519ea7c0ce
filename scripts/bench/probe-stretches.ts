// What the event-loop probe (event-loop-probe.ts, preloaded into a service) wrote: one JSON
// line per stretch of 5 ms or more the main thread ran between two turns of its timer, with
// when it ended on process.hrtime's clock, which a benchmark reads on the same machine.
import { readFileSync } from 'node:fs';

export interface Stretch {
  /** Its longest wall time and longest CPU time, ms; 0 when no stretch of 5 ms or more ended. */
  wallMs: number;
  cpuMs: number;
}

/** The longest stretch (wall and CPU, each its own maximum) of the probe's `text` that ended within [from, to]. */
export function longestStretch(text: string, from: bigint, to: bigint): Stretch {
  let wallMs = 0;
  let cpuMs = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const stretch = JSON.parse(line) as { at: string; wall_ms: number; cpu_ms: number };
    const at = BigInt(stretch.at);
    if (at < from || at > to) continue;
    wallMs = Math.max(wallMs, stretch.wall_ms);
    cpuMs = Math.max(cpuMs, stretch.cpu_ms);
  }
  return { wallMs, cpuMs };
}

/** The longest stretch the probe's file holds that ended within [from, to]; none when the file is not there yet. */
export function longestStretchIn(file: string, from: bigint, to: bigint): Stretch {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No stretch of 5 ms or more yet: the probe has not made the file.
  }
  return longestStretch(text, from, to);
}
