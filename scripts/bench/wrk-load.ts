// Read throughput under wrk (https://github.com/wg/wrk), a load generator written in C: one
// thread and 32 keep-alive connections, each request the next path of a rotation over a
// number of clusters, with or without `Accept-Encoding: gzip` (Go's transport, the fleet's
// poller, adds it to every request that sets none, so most polls at scale are gzip polls).
// wrk's own CPU is small beside autocannon's, so more of the machine goes to the server than in
// ./read-load.ts. The servers are loaded in turn, the order rotating from round to round, and
// the machine's load average is read before each run: the machine is shared.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { procCpuSeconds } from './proc-cpu.ts';
import { summarize as summarizeLoad } from './read-load.ts';
import { median } from './stats.ts';

export interface WrkResult {
  reqPerSec: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Socket errors, timeouts and answers that are not 2xx or 3xx. */
  errors: number;
  /** The machine's 1-minute load average just before the run. */
  load: number;
  /** Microseconds of the server process's CPU per answered request, when its pid was given. */
  cpuMicros?: number;
}

/** One request of the rotation: its path and the token it presents. */
export interface WrkRequest {
  path: string;
  token: string;
}

export type Encoding = 'gzip' | 'plain';
export const ENCODINGS: readonly Encoding[] = ['gzip', 'plain'];

export interface WrkOptions {
  connections: number;
  seconds: number;
  encoding: Encoding;
  pid?: number;
}

/** The wrk binary's version line, or undefined when wrk is not installed. */
export function wrkVersion(): string | undefined {
  try {
    // `wrk -v` prints its version and exits with status 1.
    execFileSync('wrk', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const out = (error as { stdout?: string; code?: string }).stdout;
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    return out?.split('\n')[0]?.trim() || 'wrk';
  }
  return 'wrk';
}

/**
 * The Lua script: the requests are formatted once, in init; each request() hands out the next
 * one; done() prints the figures as one JSON line.
 */
function luaScript(requests: WrkRequest[], encoding: Encoding): string {
  const quote = (s: string) => JSON.stringify(s);
  const rows = requests.map((r) => `{${quote(r.path)}, ${quote(`Bearer ${r.token}`)}}`).join(',\n');
  const gzip = encoding === 'gzip' ? `headers["Accept-Encoding"] = "gzip"` : '';
  return `local rows = {
${rows}
}
local formatted = {}
local n = 0
function init(args)
  for i, row in ipairs(rows) do
    local headers = { ["Authorization"] = row[2] }
    ${gzip}
    formatted[i] = wrk.format("GET", row[1], headers)
  end
end
function request()
  n = n + 1
  return formatted[(n % #formatted) + 1]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;
}

/** One wrk run of `options.seconds` against the server on `port`. */
export async function wrkLoad(port: number, requests: WrkRequest[], options: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  const script = join(dir, 'rotate.lua');
  writeFileSync(script, luaScript(requests, options.encoding));
  const load = loadavg()[0];
  const cpuBefore = options.pid === undefined ? undefined : procCpuSeconds(options.pid);
  try {
    const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '-s', script];
    const out = await run('wrk', [...args, `http://127.0.0.1:${port}`]);
    const cpuAfter = options.pid === undefined ? undefined : procCpuSeconds(options.pid);
    const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
    if (line === undefined) throw new Error(`wrk printed no figures:\n${out}`);
    const figures = JSON.parse(line) as {
      requests: number;
      duration_us: number;
      p50_us: number;
      p99_us: number;
      errors: number;
    };
    const result: WrkResult = {
      reqPerSec: figures.requests / (figures.duration_us / 1e6),
      p50: figures.p50_us / 1000,
      p99: figures.p99_us / 1000,
      errors: figures.errors,
      load,
    };
    if (cpuBefore === undefined || cpuAfter === undefined || figures.requests === 0) return result;
    return { ...result, cpuMicros: ((cpuAfter - cpuBefore) * 1e6) / figures.requests };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}:\n${out}`))));
  });
}

export interface WrkServer {
  port: number;
  pid?: number;
}

export interface WrkComparisonOptions {
  connections: number;
  seconds: number;
  rounds: number;
  log?: (line: string) => void;
}

/** Each encoding's runs of each server, round by round, and their medians. */
export type WrkComparison<K extends string> = Record<
  Encoding,
  { runs: Record<K, WrkResult[]>; summary: Record<K, WrkResult> }
>;

/**
 * `rounds` rounds; in each, every encoding, and for it every server in turn, the order of the
 * servers rotating from round to round so that none always runs first or last.
 */
export async function compareWithWrk<K extends string>(
  servers: Record<K, WrkServer>,
  requests: WrkRequest[],
  options: WrkComparisonOptions,
): Promise<WrkComparison<K>> {
  const names = Object.keys(servers) as K[];
  const width = Math.max(8, ...names.map((name) => name.length));
  const empty = () => Object.fromEntries(names.map((name) => [name, [] as WrkResult[]])) as Record<K, WrkResult[]>;
  const runs: Record<Encoding, Record<K, WrkResult[]>> = { gzip: empty(), plain: empty() };
  // A short run of each first: every path's answer is prepared and every connection warm before a figure is taken.
  for (const name of names)
    for (const encoding of ENCODINGS)
      await wrkLoad(servers[name].port, requests, { connections: options.connections, seconds: 1, encoding });
  for (let round = 0; round < options.rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const encoding of ENCODINGS) {
      for (const name of order) {
        const r = await wrkLoad(servers[name].port, requests, { ...options, encoding, pid: servers[name].pid });
        runs[encoding][name].push(r);
        const cpu = r.cpuMicros === undefined ? '' : `  cpu ${r.cpuMicros.toFixed(1)} us/req`;
        const rate = r.reqPerSec.toFixed(0).padStart(7);
        options.log?.(
          `round ${round + 1} ${encoding.padEnd(5)} ${name.padEnd(width)} ${rate} req/s  p50 ${r.p50.toFixed(2)} ms  ` +
            `p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}  load ${r.load.toFixed(2)}${cpu}`,
        );
      }
    }
  }
  // The medians autocannon's rounds get (./read-load.ts), and the machine's load beside them.
  const summarize = (rs: WrkResult[]): WrkResult => ({ ...summarizeLoad(rs), load: median(rs.map((r) => r.load)) });
  const result = {} as WrkComparison<K>;
  for (const encoding of ENCODINGS) {
    const summary = Object.fromEntries(names.map((name) => [name, summarize(runs[encoding][name])])) as Record<
      K,
      WrkResult
    >;
    result[encoding] = { runs: runs[encoding], summary };
  }
  return result;
}

/** a/b req/s of each round; the two ran back to back, so slow drifts of a shared machine cancel. */
export function wrkRoundRatios(a: WrkResult[], b: WrkResult[]): number[] {
  return a.map((r, i) => r.reqPerSec / b[i].reqPerSec);
}
