// Item 1 of the rollout benchmark: the poll path of the service serving a rollout over the
// whole fleet against the same fleet served without one, loaded in turn by autocannon
// (./read-load.ts) with every cluster's platform-components in rotation — the clusters of the
// released step get the rollout's answer, the others the catalog's. Every cluster polls each
// service once first, so both have every answer made and the rollout's first step is fetched.
import { forEachLimit, HttpClient } from './http-client.ts';
import type { NodeProcess } from './node-process.ts';
import { compareServers, type LoadResult, roundRatios } from './read-load.ts';
import type { Side } from './rollout-fleet.ts';
import { type Encoding, ENCODINGS } from './rollout-record.ts';
import { AUTH, clusterPath, spreadIndices } from './scale/fleet.ts';
import { median } from './stats.ts';

export interface ReadOptions {
  /** How many clusters' paths the load rotates over. */
  sample: number;
  seconds: number;
  rounds: number;
  connections: number;
}

export interface ReadComparison {
  runs: Record<Side, LoadResult[]>;
  summary: Record<Side, LoadResult>;
  /** rollout / no rollout req/s, per round (the two ran back to back) and their median. */
  roundRatios: number[];
  ratio: number;
  /**
   * The service's CPU per request, no rollout / rollout, per round and their median: on a
   * machine whose other load comes and goes, it moves far less than requests per second.
   */
  cpuRoundRatios: number[];
  cpuRatio: number;
}

export interface RolloutReads {
  options: ReadOptions;
  /** Seconds each service took for the first poll of every cluster (8 at a time). */
  firstPassSeconds: Record<Side, number>;
  byEncoding: Record<Encoding, ReadComparison>;
}

export function pollPaths(clusters: number): string[] {
  return Array.from({ length: clusters }, (_, i) => clusterPath(i, 'platform-components'));
}

/** Every cluster polls the service once; throws at the first answer that is not 200. */
export async function pollEveryCluster(service: NodeProcess, paths: string[]): Promise<number> {
  const client = new HttpClient(service.port, 8, AUTH);
  const started = performance.now();
  try {
    await forEachLimit(paths, 8, async (path) => {
      const answer = await client.get(path);
      if (answer.status !== 200) {
        throw new Error(`${path}: ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
      }
    });
  } finally {
    client.close();
  }
  return (performance.now() - started) / 1000;
}

export async function measureRolloutReads(
  services: Record<Side, NodeProcess>,
  clusters: number,
  options: ReadOptions,
  log: (line: string) => void,
): Promise<RolloutReads> {
  const firstPassSeconds = { rollout: 0, 'no rollout': 0 };
  for (const side of ['rollout', 'no rollout'] as const) {
    firstPassSeconds[side] = await pollEveryCluster(services[side], pollPaths(clusters));
    log(`  ${side}: every cluster polled once in ${firstPassSeconds[side].toFixed(1)} s`);
  }
  const paths = spreadIndices(clusters, options.sample).map((i) => clusterPath(i, 'platform-components'));
  const ports = { rollout: services.rollout.port, 'no rollout': services['no rollout'].port };
  const pids = { rollout: services.rollout.pid, 'no rollout': services['no rollout'].pid };
  const byEncoding = {} as Record<Encoding, ReadComparison>;
  for (const encoding of ENCODINGS) {
    const headers = encoding === 'gzip' ? { ...AUTH, 'accept-encoding': 'gzip' } : AUTH;
    const { runs, summary } = await compareServers(ports, paths, headers, {
      ...options,
      pids,
      log: (line) => log(`  ${encoding.padEnd(5)} ${line}`),
    });
    const ratios = roundRatios(runs.rollout, runs['no rollout']);
    const cpu = runs.rollout.map((r, k) => (runs['no rollout'][k].cpuMicros ?? NaN) / (r.cpuMicros ?? NaN));
    byEncoding[encoding] = {
      runs,
      summary,
      roundRatios: ratios,
      ratio: median(ratios),
      cpuRoundRatios: cpu,
      cpuRatio: median(cpu),
    };
  }
  return { options, firstPassSeconds, byEncoding };
}
