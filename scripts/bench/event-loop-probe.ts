// Preloaded into the service by a benchmark (NODE_OPTIONS=--import): appends to the file
// BENCH_PROBE_FILE one JSON line for every stretch of 5 ms or more that the main thread ran
// between two turns of a 2 ms timer — when it ended (process.hrtime, which the benchmark reads
// on the same clock), its wall time, and the thread's CPU time in it. On a machine shared
// with other work the wall time includes waiting for a core; the CPU time does not, so it is
// what a quiet machine would have held the event loop for (its own garbage collection
// included, the collector's helper threads not).
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_PROBE_FILE;
if (isMainThread && file) {
  let cpu = process.threadCpuUsage();
  let wall = process.hrtime.bigint();
  const timer = setInterval(() => {
    const spent = process.threadCpuUsage(cpu);
    const now = process.hrtime.bigint();
    const cpuMs = (spent.user + spent.system) / 1000;
    const wallMs = Number(now - wall) / 1e6;
    if (cpuMs >= 5 || wallMs >= 5)
      appendFileSync(file, `${JSON.stringify({ at: String(now), wall_ms: wallMs, cpu_ms: cpuMs })}\n`);
    cpu = process.threadCpuUsage();
    wall = process.hrtime.bigint();
  }, 2);
  timer.unref();
}
