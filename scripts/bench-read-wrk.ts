// The read path under wrk alone (the figure `npm run bench` takes among others): a config repo
// of BENCH_CLUSTERS (1,000) clusters, the service on it, the node:http yardstick with the same
// bytes and the same token check, and wrk with 32 connections rotating over BENCH_WRK_CLUSTERS
// (200) of them, gzip and plain (scripts/bench/wrk-reads.ts).
//   npm run bench:wrk
//   BENCH_COMPARE_ROOT=/tmp/other-checkout npm run bench:wrk   (that checkout's service too, as "other",
//     alternating with this one's in the same rounds: two commits side by side in one sitting)
// Then the same servers under autocannon as `npm run bench` loads them (./bench/read-load.ts: 50
// connections, every cluster of the fleet, plain), BENCH_ROUNDS (3) rounds of BENCH_SECONDS (10);
// BENCH_ROUNDS=0 leaves it out.
//   BENCH_CPU_PROF=<dir> npm run bench:wrk   (the services run with --cpu-prof, their profiles written to <dir>)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from './bench/http-client.ts';
import { describeMachine, sourceState } from './bench/machine.ts';
import { type NodeProcess, PROJECT_ROOT, SERVICE_MAIN, startNodeProcess } from './bench/node-process.ts';
import { bodiesOf, compareServers, roundRatios, startBaseline } from './bench/read-load.ts';
import { median } from './bench/stats.ts';
import { measureWrkReads, WRK_CLUSTERS } from './bench/wrk-reads.ts';
import { ENCODINGS, type WrkServer, wrkRoundRatios } from './bench/wrk-load.ts';
import { clusterDns, generateConfigRepo } from './generate-repo.ts';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS ?? 1000);
const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 25);
const COMPARE_ROOT = process.env.BENCH_COMPARE_ROOT;
const CPU_PROF = process.env.BENCH_CPU_PROF;
const TOKEN = 'bench-token';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const dir = mkdtempSync(join(tmpdir(), 'bench-repo-'));
generateConfigRepo(dir, { clusters: CLUSTERS, componentsPerCluster: COMPONENTS, git: true });
const step = Math.max(1, Math.floor(CLUSTERS / WRK_CLUSTERS));
const paths = Array.from(
  { length: Math.min(WRK_CLUSTERS, CLUSTERS) },
  (_, i) => `/api/v2/gitops/clusters/${clusterDns(i * step)}/platform-components`,
);
const env = { AUTH_TOKEN: TOKEN, CONFIG_REPO: dir, LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'info' };
if (CPU_PROF) mkdirSync(CPU_PROF, { recursive: true });
const started: NodeProcess[] = [];
const serviceEnv = CPU_PROF ? { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF}` } : env;
const service = await startNodeProcess(SERVICE_MAIN, { env: serviceEnv });
started.push(service);
const servers: Record<string, WrkServer> = { service: { port: service.port, pid: service.pid } };
if (COMPARE_ROOT) {
  const other = await startNodeProcess(join(COMPARE_ROOT, 'src', 'main.ts'), { env: serviceEnv });
  started.push(other);
  servers.other = { port: other.port, pid: other.pid };
}
const client = new HttpClient(service.port, 1, { authorization: `Bearer ${TOKEN}` });
const allPaths = Array.from(
  { length: CLUSTERS },
  (_, i) => `/api/v2/gitops/clusters/${clusterDns(i)}/platform-components`,
);
const bodies = await bodiesOf(client, allPaths, true);
client.close();
const baseline = await startBaseline(bodies, TOKEN);
started.push(baseline);
servers.baseline = { port: baseline.port, pid: baseline.pid };
console.log(`${CLUSTERS} clusters x ${COMPONENTS} components; ${describeMachine()}`);
const source = sourceState(PROJECT_ROOT);
console.log(
  `this checkout: ${source?.commit ?? '?'}${COMPARE_ROOT ? `; other: ${COMPARE_ROOT}` : ''}; pids ` +
    Object.entries(servers)
      .map(([name, server]) => `${name} ${server.pid}`)
      .join(', '),
);
try {
  const figure = await measureWrkReads(
    servers as Record<string, WrkServer> & { baseline: WrkServer },
    paths.map((path) => ({ path, token: TOKEN })),
    (line) => console.log(line),
  );
  const ratioLine = (label: string, rounds: number[]) =>
    console.log(
      `${label}: per round ${rounds.map((r) => r.toFixed(2)).join(', ')}, median ${median(rounds).toFixed(2)}`,
    );
  if (figure && COMPARE_ROOT) {
    for (const encoding of ENCODINGS) {
      const { runs } = figure.comparison[encoding];
      ratioLine(`wrk ${encoding} req/s, this checkout/other`, wrkRoundRatios(runs.service, runs.other));
    }
  }
  const autocannon =
    ROUNDS > 0
      ? await compareServers(
          Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, server.port])),
          allPaths,
          { authorization: `Bearer ${TOKEN}` },
          {
            connections: 50,
            seconds: SECONDS,
            rounds: ROUNDS,
            log: (line) => console.log(`autocannon ${line}`),
            pids: Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, server.pid!])),
          },
        )
      : undefined;
  if (autocannon) {
    for (const name of Object.keys(servers).filter((n) => n !== 'baseline'))
      ratioLine(
        `autocannon plain req/s, ${name}/baseline`,
        roundRatios(autocannon.runs[name], autocannon.runs.baseline),
      );
  }
  mkdirSync(join(PROJECT_ROOT, 'bench-results'), { recursive: true });
  writeFileSync(
    join(PROJECT_ROOT, 'bench-results', 'read-wrk.json'),
    JSON.stringify({ clusters: CLUSTERS, source, compareRoot: COMPARE_ROOT, figure, autocannon }, null, 2),
  );
} finally {
  // SIGTERM lets the service write its CPU profile on the way out.
  await Promise.all(started.map((p) => p.stop()));
  rmSync(dir, { recursive: true, force: true });
}
