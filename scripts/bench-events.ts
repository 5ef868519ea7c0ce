// What the events clusters send cost the service (POST /api/v2/gitops/events), on the real
// service process (git backend, a generated fleet):
// 1. one cluster sends EVENTS_FLOOD (10,000) events, signed as notification-controller's
//    generic-hmac Provider signs them, as fast as BENCH_CONNECTIONS connections take them:
//    how many are taken (202) and limited (429), in how long;
// 2. every cluster of the fleet sends 100 distinct events (its whole burst), BENCH_ROUNDS times,
//    far more than EVENTS_MEMORY holds: the bytes the events are counted at (events_kept_bytes)
//    stay within the setting, and the process's resident memory (/proc), read after each round,
//    levels off.
//   npm run bench:events
//   BENCH_CLUSTERS=200 BENCH_ROUNDS=4 npm run bench:events   (about 4 minutes on two busy cores)
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterTokenKey, signClusterToken } from '../src/domain/cluster-token.ts';
import { forEachLimit, HttpClient } from './bench/http-client.ts';
import { SERVICE_MAIN, startNodeProcess } from './bench/node-process.ts';
import { procMemory } from './bench/proc-memory.ts';
import { clusterId, generateConfigRepo } from './generate-repo.ts';

const CLUSTERS = Number(process.env.BENCH_CLUSTERS ?? 1000);
const FLOOD = Number(process.env.EVENTS_FLOOD ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MEMORY = process.env.BENCH_EVENTS_MEMORY ?? '16mb';
/** Rounds of the whole fleet sending: resident memory levels off once the events fill EVENTS_MEMORY. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const KEY = 'bench-cluster-token-key-0123456789abcdef';
const TOKEN = 'bench-token';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function event(cluster: string, n: number): string {
  return JSON.stringify({
    involvedObject: {
      kind: 'HelmRelease',
      namespace: 'flux-system',
      name: 'component-01',
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
    },
    severity: n % 7 === 0 ? 'error' : 'info',
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    message:
      `Helm upgrade succeeded for release flux-system/component-01.v${n} with chart component-01@1.0.${n} ` +
      '.'.repeat(400),
    reason: n % 7 === 0 ? 'UpgradeFailed' : 'UpgradeSucceeded',
    metadata: { cluster, revision: `1.0.${n}` },
    reportingController: 'helm-controller',
  });
}

async function keptBytes(client: HttpClient): Promise<{ kept: number; bytes: number }> {
  const text = (await client.get('/metrics')).body.toString('utf8');
  const value = (name: string) => Number(new RegExp(`^gitops_config_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { kept: value('events_kept'), bytes: value('events_kept_bytes') };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-events-'));
  generateConfigRepo(dir, { clusters: CLUSTERS, componentsPerCluster: 5, git: true });
  const env = {
    CONFIG_REPO: dir,
    AUTH_TOKEN: TOKEN,
    CLUSTER_TOKEN_KEYS: KEY,
    LISTEN_ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'info',
    EVENTS_MEMORY: MEMORY,
  };
  const service = await startNodeProcess(SERVICE_MAIN, { env });
  const client = new HttpClient(service.port, CONNECTIONS);
  const key = clusterTokenKey(KEY);
  const post = (cluster: string, body: string) => {
    const signature = `sha256=${createHmac('sha256', signClusterToken(key, cluster, 0))
      .update(body)
      .digest('hex')}`;
    return client.request(
      'POST',
      '/api/v2/gitops/events',
      { 'content-type': 'application/json', 'x-signature': signature },
      body,
    );
  };
  try {
    const before = procMemory(service.pid);
    const one = clusterId(0);
    const bodies = Array.from({ length: FLOOD }, (_, n) => event(one, n));
    const statuses = new Map<number, number>();
    const started = performance.now();
    await forEachLimit(bodies, CONNECTIONS, async (body) => {
      const answer = await post(one, body);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    });
    const floodMs = performance.now() - started;
    const afterFlood = procMemory(service.pid);
    const flood = await keptBytes(client);

    const show = (m: Map<number, number>) =>
      [...m]
        .sort()
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
    console.log(`events, ${CLUSTERS} clusters, EVENTS_MEMORY=${MEMORY}, ${CONNECTIONS} connections`);
    console.log(`  RSS before: ${mib(before?.rss ?? NaN)}`);
    const flooded = `one cluster, ${FLOOD} events in ${(floodMs / 1000).toFixed(2)} s: ${show(statuses)}`;
    console.log(`  ${flooded}; kept ${flood.kept} (${mib(flood.bytes)}); RSS ${mib(afterFlood?.rss ?? NaN)}`);
    for (let round = 0; round < ROUNDS; round++) {
      const many: [string, string][] = [];
      for (let c = 0; c < CLUSTERS; c++)
        for (let n = 0; n < 100; n++) many.push([clusterId(c), event(clusterId(c), round * 100 + n)]);
      const fleetStatuses = new Map<number, number>();
      const fleetStarted = performance.now();
      await forEachLimit(many, CONNECTIONS, async ([cluster, body]) => {
        const answer = await post(cluster, body);
        fleetStatuses.set(answer.status, (fleetStatuses.get(answer.status) ?? 0) + 1);
      });
      const fleetMs = performance.now() - fleetStarted;
      const memory = procMemory(service.pid);
      const fleet = await keptBytes(client);
      const took = `${(fleetMs / 1000).toFixed(1)} s`;
      const sent = `round ${round + 1}: ${many.length} events from ${CLUSTERS} clusters in ${took}`;
      console.log(
        `  ${sent} (${show(fleetStatuses)}); kept ${fleet.kept}, counted at ${mib(fleet.bytes)}; ` +
          `RSS ${mib(memory?.rss ?? NaN)}`,
      );
    }
    console.log(`  peak RSS ${mib(procMemory(service.pid)?.hwm ?? NaN)}`);
  } finally {
    client.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
