// Timed REST writes for the crud-mode benchmarks: one request, answered in full, its wall
// time in ms. A write that fails stops the benchmark: a latency of a refused write is no
// latency of a write.
import { mean, percentile } from './stats.ts';

export async function timedWrite(
  url: string,
  method: string,
  token: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status}`);
  return ms;
}

/** One line: n, p50, p90, p99, max and mean of `ms`. */
export function latencyLine(name: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(1).padStart(7);
  return (
    `${name.padEnd(34)} n=${String(ms.length).padStart(4)}  p50 ${f(percentile(sorted, 50))} ms  p90 ` +
    `${f(percentile(sorted, 90))} ms  ` +
    `p99 ${f(percentile(sorted, 99))} ms  max ${f(sorted.at(-1)!)} ms  mean ${f(mean(ms))} ms`
  );
}

/** A merge patch of one cluster's patch value: the write the crud benchmarks repeat. */
export function clusterPatch(clusterIndex: number, serial: number): Record<string, unknown> {
  return { patches: { [`component-${clusterIndex % 25}`]: { replicaCount: String(100 + serial) } } };
}
