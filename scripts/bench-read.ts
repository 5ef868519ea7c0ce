// Read-path benchmark: the service (git backend, real server process) against a minimal
// node:http server serving the same bytes from memory, side by side in one run.
//   npm run bench            (1,000 clusters x 25 components, 3 rounds of 10 s each)
//   BENCH_CLUSTERS=200 BENCH_SECONDS=3 BENCH_ROUNDS=1 npm run bench   (a quick look)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { clusterDns, generateConfigRepo } from './generate-repo.ts';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS ?? 1000);
const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 25);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TOKEN = 'bench-token';
const root = join(import.meta.dirname, '..');

interface Result {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
}

function startChild(args: string[], env: Record<string, string>, stdin?: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(stdin ?? '');
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const port = /"port":(\d+)/.exec(out)?.[1] ?? /"listen":"[^"]*:(\d+)"/.exec(out)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code}: ${out}`)));
  });
}

async function load(port: number, paths: string[], headers: Record<string, string>): Promise<Result> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: paths.map((path) => ({ method: 'GET', path, headers })),
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-repo-'));
  generateConfigRepo(dir, { clusters: CLUSTERS, componentsPerCluster: COMPONENTS, git: true });
  const paths = Array.from({ length: CLUSTERS }, (_, i) => `/api/v2/gitops/clusters/${clusterDns(i)}/platform-components`);

  const service = await startChild(['src/main.ts'], { AUTH_TOKEN: TOKEN, CONFIG_REPO: dir, LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'info' });
  const bodies: Record<string, string> = {};
  let bytes = 0;
  for (const path of paths) {
    const res = await fetch(`http://127.0.0.1:${service.port}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    bodies[path] = await res.text();
    bytes += Buffer.byteLength(bodies[path]);
  }
  const baseline = await startChild(['scripts/bench/baseline-server.ts'], {}, JSON.stringify(bodies));
  console.log(`${CLUSTERS} clusters x ${COMPONENTS} components; mean body ${Math.round(bytes / CLUSTERS)} bytes; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS}s each`);

  const runs: { service: Result[]; baseline: Result[] } = { service: [], baseline: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order so neither side always runs on a warmer or cooler machine.
    const order = round % 2 === 0 ? (['service', 'baseline'] as const) : (['baseline', 'service'] as const);
    for (const which of order) {
      const port = which === 'service' ? service.port : baseline.port;
      const r = await load(port, paths, { authorization: `Bearer ${TOKEN}` });
      runs[which].push(r);
      console.log(`round ${round + 1} ${which.padEnd(8)} ${r.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}`);
    }
  }
  service.child.kill('SIGTERM');
  baseline.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });

  const summary = Object.fromEntries(
    (['service', 'baseline'] as const).map((k) => [
      k,
      { reqPerSec: median(runs[k].map((r) => r.reqPerSec)), p50: median(runs[k].map((r) => r.p50)), p99: median(runs[k].map((r) => r.p99)), errors: runs[k].reduce((a, r) => a + r.errors, 0) },
    ]),
  ) as Record<'service' | 'baseline', Result>;
  const ratio = summary.service.reqPerSec / summary.baseline.reqPerSec;
  // Each round runs the two back to back, so a per-round ratio cancels slow drifts of a shared machine.
  const roundRatios = runs.service.map((r, i) => r.reqPerSec / runs.baseline[i]!.reqPerSec);
  console.log('\nmedians         req/s    p50 ms   p99 ms');
  for (const k of ['service', 'baseline'] as const) {
    console.log(`${k.padEnd(10)} ${summary[k].reqPerSec.toFixed(0).padStart(9)} ${String(summary[k].p50).padStart(9)} ${String(summary[k].p99).padStart(8)}`);
  }
  console.log(`ratio service/baseline (req/s): ${ratio.toFixed(2)} of the medians; per round ${roundRatios.map((r) => r.toFixed(2)).join(', ')}, median ${median(roundRatios).toFixed(2)}  (target >= 0.80)`);
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results', 'read.json'), JSON.stringify({ clusters: CLUSTERS, components: COMPONENTS, runs, summary, ratio, roundRatios }, null, 2));
  if (summary.service.errors > 0) process.exitCode = 1;
}

await main();
