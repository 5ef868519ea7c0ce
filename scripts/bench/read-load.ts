// Read throughput of the service side by side with a minimal node:http server answering the
// same paths with the same bytes from memory (baseline-server.ts): autocannon loads each in
// turn, alternating which goes first, and the ratio of the two is the figure that matters.
import autocannon from 'autocannon';
import { HttpClient } from './http-client.ts';
import { type NodeProcess, PROJECT_ROOT, startNodeProcess } from './node-process.ts';
import { procCpuSeconds } from './proc-cpu.ts';
import { median } from './stats.ts';

export interface LoadResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  /** Microseconds of the server process's CPU per answered request, when its pid was given. */
  cpuMicros?: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** The server's process: its CPU time per request is measured too. */
  pid?: number;
}

/** One request of a load: a path and its own headers (a cluster's own token, say). */
export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
}

export async function load(
  port: number,
  paths: string[] | LoadRequest[],
  headers: Record<string, string>,
  options: LoadOptions,
): Promise<LoadResult> {
  const requests = paths.map((request) =>
    typeof request === 'string'
      ? { method: 'GET' as const, path: request, headers }
      : { method: 'GET' as const, ...request },
  );
  const cpuBefore = options.pid === undefined ? undefined : procCpuSeconds(options.pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: options.connections,
    duration: options.seconds,
    requests,
  });
  const cpuAfter = options.pid === undefined ? undefined : procCpuSeconds(options.pid);
  const answered = {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
  if (cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0) return answered;
  return { ...answered, cpuMicros: ((cpuAfter - cpuBefore) * 1e6) / result.requests.total };
}

/** What the yardstick serves: each path's body, and optionally its gzip bytes as the service sends them. */
export interface BaselineBodies {
  plain: Record<string, string>;
  gzip?: Record<string, Buffer>;
}

/** Reads each path's bytes from the service (plain, and gzip when asked) for the yardstick to serve. */
export async function bodiesOf(client: HttpClient, paths: string[], withGzip: boolean): Promise<BaselineBodies> {
  const bodies: BaselineBodies = { plain: {}, gzip: withGzip ? {} : undefined };
  for (const path of paths) {
    const plain = await client.get(path);
    if (plain.status !== 200) throw new Error(`${path}: ${plain.status}`);
    bodies.plain[path] = plain.body.toString('utf8');
    if (bodies.gzip) {
      const gzip = await client.get(path, { 'accept-encoding': 'gzip' });
      if (gzip.headers['content-encoding'] !== 'gzip') throw new Error(`${path}: no gzip answer`);
      bodies.gzip[path] = gzip.body;
    }
  }
  return bodies;
}

/** The yardstick server, answering requests that present `token` as a Bearer token (401 without it). */
export function startBaseline(bodies: BaselineBodies, token: string): Promise<NodeProcess> {
  const gzip =
    bodies.gzip &&
    Object.fromEntries(Object.entries(bodies.gzip).map(([path, bytes]) => [path, bytes.toString('base64')]));
  return startNodeProcess(`${PROJECT_ROOT}/scripts/bench/baseline-server.ts`, {
    stdin: JSON.stringify({ token, plain: bodies.plain, gzip }),
  });
}

export interface Comparison {
  runs: { service: LoadResult[]; baseline: LoadResult[] };
  summary: { service: LoadResult; baseline: LoadResult };
  /** service/baseline req/s of the medians. */
  ratio: number;
  /** service/baseline req/s of each round; the two ran back to back, so slow drifts of a shared machine cancel. */
  roundRatios: number[];
}

export type CompareOptions = LoadOptions & {
  rounds: number;
  log?: (line: string) => void;
  /** Servers loaded with requests of their own (each with its headers) rather than `paths` with `headers`. */
  requests?: Record<string, LoadRequest[]>;
  /** The servers' processes, by name: their CPU time per request is measured too. */
  pids?: Record<string, number>;
};

/** `rounds` rounds, each loading both servers for `seconds`, alternating which goes first. */
export async function compareWithBaseline(
  ports: { service: number; baseline: number },
  paths: string[],
  headers: Record<string, string>,
  options: CompareOptions,
): Promise<Comparison> {
  const { runs, summary } = await compareServers(ports, paths, headers, options);
  return {
    runs,
    summary,
    ratio: summary.service.reqPerSec / summary.baseline.reqPerSec,
    roundRatios: roundRatios(runs.service, runs.baseline),
  };
}

/**
 * `rounds` rounds, each loading every server for `seconds` in turn; the order rotates from
 * round to round, so that no server always runs first (on a cooler machine) or last.
 */
export async function compareServers<K extends string>(
  ports: Record<K, number>,
  paths: string[],
  headers: Record<string, string>,
  options: CompareOptions,
): Promise<{ runs: Record<K, LoadResult[]>; summary: Record<K, LoadResult> }> {
  const names = Object.keys(ports) as K[];
  const runs = Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<K, LoadResult[]>;
  const width = Math.max(8, ...names.map((name) => name.length));
  for (let round = 0; round < options.rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const which of order) {
      const r = await load(ports[which], options.requests?.[which] ?? paths, headers, {
        ...options,
        pid: options.pids?.[which],
      });
      runs[which].push(r);
      const cpu = r.cpuMicros === undefined ? '' : `  cpu ${r.cpuMicros.toFixed(1)} us/req`;
      options.log?.(
        `round ${round + 1} ${which.padEnd(width)} ${r.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ` +
          `${r.p99} ms  errors ${r.errors}${cpu}`,
      );
    }
  }
  const summary = Object.fromEntries(names.map((name) => [name, summarize(runs[name])])) as Record<K, LoadResult>;
  return { runs, summary };
}

/** The medians of a server's rounds. */
export function summarize(rs: LoadResult[]): LoadResult {
  const cpu = rs.flatMap((r) => (r.cpuMicros === undefined ? [] : [r.cpuMicros]));
  return {
    reqPerSec: median(rs.map((r) => r.reqPerSec)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    ...(cpu.length > 0 ? { cpuMicros: median(cpu) } : {}),
  };
}

/** a/b req/s of each round; the two ran back to back, so slow drifts of a shared machine cancel. */
export function roundRatios(a: LoadResult[], b: LoadResult[]): number[] {
  return a.map((r, i) => r.reqPerSec / b[i].reqPerSec);
}
