// Read-path benchmark: the service (git backend, real server process) against a minimal
// node:http server serving the same bytes from memory, side by side in one run; the same
// service with METRICS=off and with UI=off beside it, so that what the metrics and the fleet
// poll registry cost per poll, and whether serving the web UI costs the polls anything, are
// measured in the same rounds; then the same service process polled with each cluster's own
// token and with the fleet token in back-to-back pairs, so that what checking a cluster token
// costs per poll is measured on a machine whose load drifts. Then the web UI's fleet page on
// BENCH_UI_CLUSTERS (10,000) clusters in a real Chromium (scripts/bench/ui-fleet.ts), a rollout's
// page over BENCH_UI_ROLLOUT_CLUSTERS (50,000) clusters (scripts/bench/ui-rollout.ts), and the
// replicas figure (bench/replicas.ts): push → the last of three replicas serving it, with
// PEERS and without. Between them, the service against the yardstick under wrk, 32 connections
// rotating over 200 clusters, gzip and plain (bench/wrk-reads.ts; skipped when wrk is missing;
// alone: `npm run bench:wrk`).
//   npm run bench            (1,000 clusters x 25 components, 3 rounds of 10 s each; 5 pushes each way)
//   BENCH_CLUSTERS=200 BENCH_SECONDS=3 BENCH_ROUNDS=1 npm run bench   (a quick look)
//   BENCH_REPLICA_PUSHES=0 npm run bench   (without the replicas figure)
// `npm run bench -- --clusters 1000,10000` runs the fleet-size comparison instead
// (bench-scale.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from './bench/http-client.ts';
import { PROJECT_ROOT, SERVICE_MAIN, startNodeProcess } from './bench/node-process.ts';
import { signClusterToken } from '../src/domain/cluster-token.ts';
import { measureAuthCost } from './bench/auth-cost.ts';
import { bodiesOf, compareServers, roundRatios, startBaseline } from './bench/read-load.ts';
import { measureReplicas, type ReplicasFigure } from './bench/replicas.ts';
import { median } from './bench/stats.ts';
import { measureUiFigure } from './bench/ui-fleet.ts';
import { measureUiRollout } from './bench/ui-rollout.ts';
import { measureWrkReads, WRK_CLUSTERS } from './bench/wrk-reads.ts';
import { clusterDns, clusterId, generateConfigRepo } from './generate-repo.ts';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS ?? 1000);
const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 25);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const REPLICA_PUSHES = Number(process.env.BENCH_REPLICA_PUSHES ?? 5);
/** Pairs of runs (fleet token, cluster tokens; the order alternating) and the seconds of each run. */
const TOKEN_PAIRS = Number(process.env.BENCH_TOKEN_PAIRS ?? 6);
const TOKEN_SECONDS = Number(process.env.BENCH_TOKEN_SECONDS ?? 5);
const TOKEN = 'bench-token';
const CLUSTER_TOKEN_KEY = 'bench-cluster-token-key-0123456789abcdef';
const UI_CLUSTERS = Number(process.env.BENCH_UI_CLUSTERS ?? 10_000);
const UI_REPEAT = Number(process.env.BENCH_UI_REPEAT ?? 5);
const UI_ROLLOUT_CLUSTERS = Number(process.env.BENCH_UI_ROLLOUT_CLUSTERS ?? 50_000);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-repo-'));
  generateConfigRepo(dir, { clusters: CLUSTERS, componentsPerCluster: COMPONENTS, git: true });
  const paths = Array.from(
    { length: CLUSTERS },
    (_, i) => `/api/v2/gitops/clusters/${clusterDns(i)}/platform-components`,
  );
  const auth = { authorization: `Bearer ${TOKEN}` };

  // Each cluster polls its own endpoint with its own token, as a fleet of clusters with tokens of their own would.
  const clusterRequests = paths.map((path, i) => ({
    path,
    headers: { authorization: `Bearer ${signClusterToken(Buffer.from(CLUSTER_TOKEN_KEY), clusterId(i), 0)}` },
  }));
  const env = {
    AUTH_TOKEN: TOKEN,
    CLUSTER_TOKEN_KEYS: CLUSTER_TOKEN_KEY,
    CONFIG_REPO: dir,
    LISTEN_ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'info',
  };
  const service = await startNodeProcess(SERVICE_MAIN, { env });
  const withoutMetrics = await startNodeProcess(SERVICE_MAIN, { env: { ...env, METRICS: 'off' } });
  const withoutUi = await startNodeProcess(SERVICE_MAIN, { env: { ...env, UI: 'off' } });
  const client = new HttpClient(service.port, 1, auth);
  const bodies = await bodiesOf(client, paths, true);
  client.close();
  const bytes = Object.values(bodies.plain).reduce((a, body) => a + Buffer.byteLength(body), 0);
  const baseline = await startBaseline(bodies, TOKEN);
  console.log(
    `${CLUSTERS} clusters x ${COMPONENTS} components; mean body ${Math.round(bytes / CLUSTERS)} bytes; ` +
      `${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS}s each`,
  );

  const ports = {
    service: service.port,
    'metrics-off': withoutMetrics.port,
    'ui-off': withoutUi.port,
    baseline: baseline.port,
  };
  const { runs, summary } = await compareServers(ports, paths, auth, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    log: (line) => console.log(line),
  });
  console.log(
    `\nthe service polled with the fleet token and with each cluster's own token, ${TOKEN_PAIRS} pairs of ` +
      `${TOKEN_SECONDS}s runs`,
  );
  const tokens = await compareServers({ 'fleet-token': service.port, 'cluster-tokens': service.port }, paths, auth, {
    connections: CONNECTIONS,
    seconds: TOKEN_SECONDS,
    rounds: TOKEN_PAIRS,
    log: (line) => console.log(line),
    requests: { 'cluster-tokens': clusterRequests },
    pids: { 'fleet-token': service.pid, 'cluster-tokens': service.pid },
  });
  // wrk rotating over WRK_CLUSTERS clusters spread over the fleet, gzip and plain, with the fleet token.
  const step = Math.max(1, Math.floor(CLUSTERS / WRK_CLUSTERS));
  const wrk = await measureWrkReads(
    { service: { port: service.port, pid: service.pid }, baseline: { port: baseline.port, pid: baseline.pid } },
    paths
      .filter((_, i) => i % step === 0)
      .slice(0, WRK_CLUSTERS)
      .map((path) => ({ path, token: TOKEN })),
    (line) => console.log(line),
  );
  const fleet = await fleetAfterLoad(service.port, auth);
  await Promise.all([service.stop(), withoutMetrics.stop(), withoutUi.stop(), baseline.stop()]);
  const ui = await measureUiFigure({ clusters: UI_CLUSTERS, repeat: UI_REPEAT, dir, token: TOKEN });
  const uiRollout = await measureUiRollout({ clusters: UI_ROLLOUT_CLUSTERS, repeat: UI_REPEAT, dir, token: TOKEN });
  rmSync(dir, { recursive: true, force: true });

  console.log('\nmedians              req/s    p50 ms   p99 ms');
  for (const k of Object.keys(ports) as (keyof typeof ports)[]) {
    console.log(
      `${k.padEnd(14)} ${summary[k].reqPerSec.toFixed(0).padStart(9)} ${String(summary[k].p50).padStart(9)} ` +
        `${String(summary[k].p99).padStart(8)}`,
    );
  }
  const ratio = summary.service.reqPerSec / summary.baseline.reqPerSec;
  const ratios = roundRatios(runs.service, runs.baseline);
  console.log(
    `ratio service/baseline (req/s): ${ratio.toFixed(2)} of the medians; per round ` +
      `${ratios.map((r) => r.toFixed(2)).join(', ')}, ` +
      `median ${median(ratios).toFixed(2)}  (target >= 0.80)`,
  );
  const metricsRatio = summary.service.reqPerSec / summary['metrics-off'].reqPerSec;
  const metricsRounds = roundRatios(runs.service, runs['metrics-off']);
  console.log(
    `ratio metrics on/off (req/s): ${metricsRatio.toFixed(3)} of the medians; per round ` +
      `${metricsRounds.map((r) => r.toFixed(3)).join(', ')}, ` +
      `median ${median(metricsRounds).toFixed(3)}  (target >= 0.95)`,
  );
  for (const k of ['fleet-token', 'cluster-tokens'] as const) {
    const s = tokens.summary[k];
    console.log(
      `${k.padEnd(14)} ${s.reqPerSec.toFixed(0).padStart(9)} ${String(s.p50).padStart(9)} ` +
        `${String(s.p99).padStart(8)}   ${s.cpuMicros?.toFixed(1) ?? '-'} us of the service's CPU per request`,
    );
  }
  const tokensRatio = tokens.summary['cluster-tokens'].reqPerSec / tokens.summary['fleet-token'].reqPerSec;
  const tokensRounds = roundRatios(tokens.runs['cluster-tokens'], tokens.runs['fleet-token']);
  console.log(
    `ratio cluster tokens/fleet token (req/s): ${tokensRatio.toFixed(3)} of the medians; per round ` +
      `${tokensRounds.map((r) => r.toFixed(3)).join(', ')}, ` +
      `median ${median(tokensRounds).toFixed(3)}  (target >= 0.95)`,
  );
  const cpuRounds = tokens.runs['cluster-tokens'].flatMap((r, i) => {
    const fleetCpu = tokens.runs['fleet-token'][i].cpuMicros;
    return r.cpuMicros === undefined || fleetCpu === undefined ? [] : [fleetCpu / r.cpuMicros];
  });
  if (cpuRounds.length > 0) {
    console.log(
      `ratio of the service's CPU per request, fleet token/cluster tokens: per round ` +
        `${cpuRounds.map((r) => r.toFixed(3)).join(', ')}, ` +
        `median ${median(cpuRounds).toFixed(3)}  (>= 0.95: a poll with a cluster token costs at most 5 % more)`,
    );
  }
  const authCost = measureAuthCost(CLUSTERS, CLUSTER_TOKEN_KEY);
  const perPollNs = (tokens.summary['fleet-token'].cpuMicros ?? NaN) * 1000;
  console.log(
    `authenticating a poll, in process: fleet token ${authCost.fleetTokenNs.toFixed(0)} ns, cluster token ` +
      `${authCost.clusterTokenNs.toFixed(0)} ns ` +
      `(the difference is ${(((authCost.clusterTokenNs - authCost.fleetTokenNs) / perPollNs) * 100).toFixed(2)} % of ` +
      `the ${(perPollNs / 1000).toFixed(1)} us of CPU a poll costs the service)`,
  );
  const uiRatio = summary.service.reqPerSec / summary['ui-off'].reqPerSec;
  const uiRounds = roundRatios(runs.service, runs['ui-off']);
  console.log(
    `ratio UI on/off (req/s): ${uiRatio.toFixed(3)} of the medians; per round ` +
      `${uiRounds.map((r) => r.toFixed(3)).join(', ')}, ` +
      `median ${median(uiRounds).toFixed(3)}  (target: 1, within the noise)`,
  );
  console.log(
    `web UI, fleet page of ${ui.clusters} clusters (median of ${ui.runs.length} loads): first rows ` +
      `${ui.firstRowsMs.toFixed(0)} ms after navigation (target <= 1000), ` +
      `search result ${ui.searchMs.toFixed(1)} ms (target <= 100), ${ui.rowsInDom} table rows in the page; ` +
      `JS + CSS ${(ui.assets.gzip / 1024).toFixed(1)} KiB gzip (${(ui.assets.plain / 1024).toFixed(1)} KiB plain; ` +
      `target <= 150 KB)`,
  );
  console.log(
    `web UI, a rollout's page over ${uiRollout.clusters} clusters (median of ${uiRollout.runs.length} loads): ` +
      `first rows ${uiRollout.firstRowsMs.toFixed(0)} ms after navigation (target <= 1000)`,
  );
  console.log(
    `fleet view after the load: ${fleet.upToDate} of ${fleet.clusters} clusters up_to_date, answered in ` +
      `${fleet.ms.toFixed(1)} ms; /metrics in ${fleet.metricsMs.toFixed(1)} ms`,
  );
  const replicas = REPLICA_PUSHES > 0 ? await replicasFigure() : undefined;
  mkdirSync(join(PROJECT_ROOT, 'bench-results'), { recursive: true });
  writeFileSync(
    join(PROJECT_ROOT, 'bench-results', 'read.json'),
    JSON.stringify(
      {
        clusters: CLUSTERS,
        components: COMPONENTS,
        runs,
        summary,
        ratio,
        roundRatios: ratios,
        metricsRatio,
        metricsRoundRatios: metricsRounds,
        tokens,
        tokensRatio,
        tokensRoundRatios: tokensRounds,
        tokensCpuRoundRatios: cpuRounds,
        authCost,
        uiRatio,
        uiRoundRatios: uiRounds,
        ui,
        uiRollout,
        wrk,
        fleet,
        replicas,
      },
      null,
      2,
    ),
  );
  if (
    summary.service.errors > 0 ||
    summary['metrics-off'].errors > 0 ||
    summary['ui-off'].errors > 0 ||
    tokens.summary['cluster-tokens'].errors > 0 ||
    fleet.upToDate !== CLUSTERS
  )
    process.exitCode = 1;
}

/** Push → the last of three replicas serving it, with PEERS and without, printed side by side. */
async function replicasFigure(): Promise<ReplicasFigure> {
  console.log(
    `\nreplicas: ${REPLICA_PUSHES} pushes each way, the webhook to one of 3 replicas (another each time), on a git ` +
      `http-backend remote`,
  );
  const figure = await measureReplicas(REPLICA_PUSHES, (line) => console.log(line));
  const show = (s: ReplicasFigure['withPeers']) =>
    `${s.median.toFixed(0).padStart(6)} ms median (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})`;
  console.log(`push → last replica serving   with PEERS (sync ${figure.syncWithPeers}): ${show(figure.withPeers)}`);
  console.log(
    `                              without PEERS (sync ${figure.syncWithoutPeers}): ${show(figure.withoutPeers)}  ` +
      `(sync shortened to keep the run short; the default 30 s makes it up to 30 s)`,
  );
  return figure;
}

/** The fleet view once every cluster has polled (all up_to_date), and how long it and a scrape take. */
async function fleetAfterLoad(
  port: number,
  auth: Record<string, string>,
): Promise<{ clusters: number; upToDate: number; ms: number; metricsMs: number }> {
  const client = new HttpClient(port, 1, auth);
  const view = await client.get('/api/v2/gitops/fleet');
  const metrics = await client.get('/metrics');
  client.close();
  if (view.status !== 200 || metrics.status !== 200)
    throw new Error(`fleet view ${view.status}, /metrics ${metrics.status}`);
  const { summary } = JSON.parse(view.body.toString('utf8')) as { summary: { clusters: number; up_to_date: number } };
  return { clusters: summary.clusters, upToDate: summary.up_to_date, ms: view.ms, metricsMs: metrics.ms };
}

await main();
