// Item 1 of the scale benchmark: start → ready of a fresh service process, side by side with
// the floor (a fresh process that only reads and YAML-parses the same files). The runs
// alternate, so a busy minute of the shared machine hits both. The last service process is
// left running for the measurements that need a warm service.
import { join } from 'node:path';
import { type NodeProcess, PROJECT_ROOT, SERVICE_MAIN, startNodeProcess, untilReady } from '../node-process.ts';
import { procMemory } from '../proc-memory.ts';
import { timeScript } from '../script-timing.ts';
import { type Spread, spread } from '../stats.ts';
import { type Fleet, MAX_OPEN_FILES, serviceEnv } from './fleet.ts';

const FLOOR_SCRIPT = join(PROJECT_ROOT, 'scripts', 'bench', 'read-parse-floor.ts');

export interface FloorRuns {
  /** Wall time of the fresh process, spawn to exit, ms. */
  wallMs: number[];
  cpuMs: number[];
  /** Time inside the process (after Node started), ms. */
  inProcessMs: number[];
  /** RSS with every parsed record held, bytes. */
  rssBytes: number[];
  files: number;
  bytes: number;
}

export function emptyFloor(): FloorRuns {
  return { wallMs: [], cpuMs: [], inProcessMs: [], rssBytes: [], files: 0, bytes: 0 };
}

/** One run of the floor script on `repo`, added to `runs`. */
export function runFloor(repo: string, runs: FloorRuns): void {
  const timing = timeScript('read + parse floor', FLOOR_SCRIPT, [repo], 1, { maxOpenFiles: MAX_OPEN_FILES });
  const report = JSON.parse(timing.lastLine) as { files: number; bytes: number; ms: number; rss: number };
  runs.wallMs.push(timing.runs[0]);
  if (timing.cpu[0] !== undefined) runs.cpuMs.push(timing.cpu[0]);
  runs.inProcessMs.push(report.ms);
  runs.rssBytes.push(report.rss);
  runs.files = report.files;
  runs.bytes = report.bytes;
}

export interface FloorSummary {
  wallMs: Spread;
  cpuMs: Spread | null;
  inProcessMs: Spread;
  rssBytes: number;
  files: number;
  bytes: number;
}

export function summarizeFloor(runs: FloorRuns): FloorSummary {
  return {
    wallMs: spread(runs.wallMs),
    cpuMs: runs.cpuMs.length ? spread(runs.cpuMs) : null,
    inProcessMs: spread(runs.inProcessMs),
    rssBytes: spread(runs.rssBytes).median,
    files: runs.files,
    bytes: runs.bytes,
  };
}

export interface StartupResult {
  readyMs: Spread;
  msPerCluster: number;
  /** RSS once /ready answered 200, bytes, each start. */
  rssAtReadyBytes: Spread;
  /** Peak RSS up to ready (VmHWM), bytes, median of the starts. */
  peakAtReadyBytes: number;
  floor: FloorSummary;
  /** start → ready / floor wall time, of the medians. */
  ratioToFloor: number;
}

export function startService(fleet: Fleet): Promise<NodeProcess> {
  return startNodeProcess(SERVICE_MAIN, { env: serviceEnv(fleet.repo), maxOpenFiles: MAX_OPEN_FILES });
}

export async function measureStartup(
  fleet: Fleet,
  repeat: number,
  log: (line: string) => void,
): Promise<{ result: StartupResult; service: NodeProcess; rssAtReady: number }> {
  const ready: number[] = [];
  const rss: number[] = [];
  const peak: number[] = [];
  const floor = emptyFloor();
  let service: NodeProcess | undefined;
  let rssAtReady = NaN;
  for (let i = 0; i < repeat; i++) {
    runFloor(fleet.repo, floor);
    await service?.stop();
    service = await startService(fleet);
    const readyMs = await untilReady(service);
    const memory = procMemory(service.pid);
    ready.push(readyMs);
    rss.push(memory?.rss ?? NaN);
    peak.push(memory?.hwm ?? NaN);
    rssAtReady = memory?.rss ?? NaN;
    log(
      `  start ${i + 1}/${repeat}: listening after ${(service.readyMs / 1000).toFixed(2)} s, ready (/ready 200) ` +
        `after ${(readyMs / 1000).toFixed(2)} s, RSS ` +
        `${(rssAtReady / 2 ** 20).toFixed(0)} MB; floor ${(floor.wallMs.at(-1)! / 1000).toFixed(2)} s`,
    );
  }
  const readyMs = spread(ready);
  const floorSummary = summarizeFloor(floor);
  const result: StartupResult = {
    readyMs,
    msPerCluster: readyMs.median / fleet.clusters,
    rssAtReadyBytes: spread(rss),
    peakAtReadyBytes: spread(peak).median,
    floor: floorSummary,
    ratioToFloor: readyMs.median / floorSummary.wallMs.median,
  };
  return { result, service: service!, rssAtReady };
}
