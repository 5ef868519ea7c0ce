// Read-path benchmark: the service (git backend, real server process) against a minimal
// node:http server serving the same bytes from memory, side by side in one run.
//   npm run bench            (1,000 clusters x 25 components, 3 rounds of 10 s each)
//   BENCH_CLUSTERS=200 BENCH_SECONDS=3 BENCH_ROUNDS=1 npm run bench   (a quick look)
// `npm run bench -- --clusters 1000,10000` runs the fleet-size comparison instead
// (bench-scale.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from './bench/http-client.ts';
import { PROJECT_ROOT, SERVICE_MAIN, startNodeProcess } from './bench/node-process.ts';
import { bodiesOf, compareWithBaseline, startBaseline } from './bench/read-load.ts';
import { median } from './bench/stats.ts';
import { clusterDns, generateConfigRepo } from './generate-repo.ts';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS ?? 1000);
const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 25);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TOKEN = 'bench-token';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-repo-'));
  generateConfigRepo(dir, { clusters: CLUSTERS, componentsPerCluster: COMPONENTS, git: true });
  const paths = Array.from({ length: CLUSTERS }, (_, i) => `/api/v2/gitops/clusters/${clusterDns(i)}/platform-components`);
  const auth = { authorization: `Bearer ${TOKEN}` };

  const service = await startNodeProcess(SERVICE_MAIN, { env: { AUTH_TOKEN: TOKEN, CONFIG_REPO: dir, LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'info' } });
  const client = new HttpClient(service.port, 1, auth);
  const bodies = await bodiesOf(client, paths, false);
  client.close();
  const bytes = Object.values(bodies.plain).reduce((a, body) => a + Buffer.byteLength(body), 0);
  const baseline = await startBaseline(bodies);
  console.log(`${CLUSTERS} clusters x ${COMPONENTS} components; mean body ${Math.round(bytes / CLUSTERS)} bytes; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS}s each`);

  const { runs, summary, ratio, roundRatios } = await compareWithBaseline({ service: service.port, baseline: baseline.port }, paths, auth, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    log: (line) => console.log(line),
  });
  await Promise.all([service.stop(), baseline.stop()]);
  rmSync(dir, { recursive: true, force: true });

  console.log('\nmedians         req/s    p50 ms   p99 ms');
  for (const k of ['service', 'baseline'] as const) {
    console.log(`${k.padEnd(10)} ${summary[k].reqPerSec.toFixed(0).padStart(9)} ${String(summary[k].p50).padStart(9)} ${String(summary[k].p99).padStart(8)}`);
  }
  console.log(
    `ratio service/baseline (req/s): ${ratio.toFixed(2)} of the medians; per round ${roundRatios.map((r) => r.toFixed(2)).join(', ')}, ` +
      `median ${median(roundRatios).toFixed(2)}  (target >= 0.80)`,
  );
  mkdirSync(join(PROJECT_ROOT, 'bench-results'), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, 'bench-results', 'read.json'), JSON.stringify({ clusters: CLUSTERS, components: COMPONENTS, runs, summary, ratio, roundRatios }, null, 2));
  if (summary.service.errors > 0) process.exitCode = 1;
}

await main();
