// Item 2 of the rollout benchmark: GET /api/v2/gitops/rollouts/{id} of the rollout over the
// whole fleet, after every cluster polled once (its first step fetched, the rest pending).
// For each request: its time to the last byte, and the longest stretch the service's event
// loop was held while it was answered — from the probe preloaded into the service
// (./event-loop-probe.ts: wall time, and the main thread's CPU time, which other work on a
// shared machine does not inflate) and, as a cluster would see it, the longest wait of a
// GET /health sent every 5 ms meanwhile; and the service's CPU time over the request (all its
// threads, from /proc in 10 ms ticks): what the answer would take on an idle machine.
import { ROLLOUTS_STATUS_PATH } from '../../src/http/paths.ts';
import { HttpClient, type Sample } from './http-client.ts';
import type { NodeProcess } from './node-process.ts';
import { procCpuSeconds } from './proc-cpu.ts';
import { longestStretchIn } from './probe-stretches.ts';
import { ROLLOUT_ID } from './rollout-record.ts';
import { AUTH } from './scale/fleet.ts';
import { type Spread, spread } from './stats.ts';

const HEALTH_EVERY_MS = 5;
/** Between two requests: the stretches of one are not the next one's. */
const PAUSE_MS = 500;

export interface StatusRun {
  ms: number;
  /** The service's CPU time while it answered, ms. */
  cpuMs: number;
  bytes: number;
  stallWallMs: number;
  stallCpuMs: number;
  healthWaitMs: number;
}

export interface RolloutStatusResult {
  runs: StatusRun[];
  ms: Spread;
  cpuMs: Spread;
  stallWallMs: Spread;
  stallCpuMs: Spread;
  healthWaitMs: Spread;
  bytes: number;
  /** What the answer said: its state, steps and clusters by state. */
  state: string;
  steps: number;
  clusters: Record<string, number>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET /health every few ms on a connection of its own, until stopped. */
function pollHealth(port: number) {
  const client = new HttpClient(port, 1);
  const samples: Sample[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const { sentAt, ms, status } = await client.get('/health');
      samples.push({ sentAt, ms, status });
      await pause(HEALTH_EVERY_MS);
    }
  })();
  return {
    /** The slowest /health answer in flight at some moment of [from, to]. */
    worstWithin: (from: number, to: number) =>
      samples.filter((s) => s.sentAt <= to && s.sentAt + s.ms >= from).reduce((max, s) => Math.max(max, s.ms), 0),
    async stop() {
      stopped = true;
      await running;
      client.close();
    },
  };
}

export async function measureRolloutStatus(
  service: NodeProcess,
  probeFile: string,
  repeat: number,
  log: (line: string) => void,
): Promise<RolloutStatusResult> {
  const client = new HttpClient(service.port, 1, AUTH);
  const path = `${ROLLOUTS_STATUS_PATH}/${ROLLOUT_ID}`;
  const health = pollHealth(service.port);
  const runs: StatusRun[] = [];
  try {
    // The first request of a path compiles its code: not one of the runs.
    const warm = await client.get(path);
    if (warm.status !== 200) throw new Error(`${path}: ${warm.status} ${warm.body.toString('utf8').slice(0, 300)}`);
    await pause(PAUSE_MS);
    for (let k = 0; k < repeat; k++) {
      const cpuBefore = procCpuSeconds(service.pid) ?? NaN;
      const from = process.hrtime.bigint();
      const answer = await client.get(path);
      const to = process.hrtime.bigint();
      const cpuMs = ((procCpuSeconds(service.pid) ?? NaN) - cpuBefore) * 1000;
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
      await pause(20); // a /health sent during the answer comes back
      const stretch = longestStretchIn(probeFile, from, to);
      const run = {
        ms: answer.ms,
        cpuMs,
        bytes: answer.body.length,
        stallWallMs: stretch.wallMs,
        stallCpuMs: stretch.cpuMs,
        healthWaitMs: health.worstWithin(answer.sentAt, answer.sentAt + answer.ms),
      };
      runs.push(run);
      log(
        `  GET ${path} ${k + 1}/${repeat}: ${run.ms.toFixed(0)} ms (${run.cpuMs.toFixed(0)} ms of CPU), ` +
          `${(run.bytes / 2 ** 20).toFixed(1)} MiB; ` +
          `event loop held ${run.stallWallMs.toFixed(0)} ms wall / ${run.stallCpuMs.toFixed(0)} ms CPU; ` +
          `slowest /health ${run.healthWaitMs.toFixed(0)} ms`,
      );
      await pause(PAUSE_MS);
    }
    type Shown = { state: string; steps: unknown[]; clusters: Record<string, number> };
    const shown = JSON.parse(warm.body.toString('utf8')) as Shown;
    return {
      runs,
      ms: spread(runs.map((r) => r.ms)),
      cpuMs: spread(runs.map((r) => r.cpuMs)),
      stallWallMs: spread(runs.map((r) => r.stallWallMs)),
      stallCpuMs: spread(runs.map((r) => r.stallCpuMs)),
      healthWaitMs: spread(runs.map((r) => r.healthWaitMs)),
      bytes: warm.body.length,
      state: shown.state,
      steps: shown.steps.length,
      clusters: Object.fromEntries(Object.entries(shown.clusters).filter(([, n]) => n > 0)),
    };
  } finally {
    await health.stop();
    client.close();
  }
}
