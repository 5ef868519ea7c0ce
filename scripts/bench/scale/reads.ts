// Item 6 of the scale benchmark: read throughput of the warm service against a minimal
// node:http server holding the same bytes (read-load.ts), plain and gzip. The paths are the
// platform-components of a sample of clusters spread over the fleet (all of them up to the
// sample size), so the yardstick's memory stays small at any fleet size while the service
// answers from its full fleet.
import { HttpClient } from '../http-client.ts';
import type { NodeProcess } from '../node-process.ts';
import { bodiesOf, type Comparison, compareWithBaseline, startBaseline } from '../read-load.ts';
import { median } from '../stats.ts';
import { AUTH, clusterPath, type Fleet, READ_TOKEN, spreadIndices } from './fleet.ts';

export interface ReadOptions {
  sample: number;
  seconds: number;
  rounds: number;
  connections: number;
}

export interface ReadSide {
  /** Medians of the rounds. */
  service: { reqPerSec: number; p50: number; p99: number; errors: number };
  baseline: { reqPerSec: number; p50: number; p99: number; errors: number };
  ratio: number;
  roundRatios: number[];
  medianRoundRatio: number;
}

export interface ReadsResult {
  paths: number;
  meanBodyBytes: number;
  meanGzipBytes: number;
  options: ReadOptions;
  plain: ReadSide;
  gzip: ReadSide;
}

const side = (c: Comparison): ReadSide => ({
  ...c.summary,
  ratio: c.ratio,
  roundRatios: c.roundRatios,
  medianRoundRatio: median(c.roundRatios),
});

export async function measureReads(
  fleet: Fleet,
  service: NodeProcess,
  options: ReadOptions,
  log: (line: string) => void,
): Promise<ReadsResult> {
  const paths = spreadIndices(fleet.clusters, options.sample).map((i) => clusterPath(i, 'platform-components'));
  const client = new HttpClient(service.port, 1, AUTH);
  const bodies = await bodiesOf(client, paths, true);
  client.close();
  const baseline = await startBaseline(bodies, READ_TOKEN);
  try {
    const ports = { service: service.port, baseline: baseline.port };
    const load = { ...options, log: (line: string) => log(`  plain ${line}`) };
    const plain = await compareWithBaseline(ports, paths, AUTH, load);
    const gzip = await compareWithBaseline(
      ports,
      paths,
      { ...AUTH, 'accept-encoding': 'gzip' },
      { ...load, log: (line) => log(`  gzip  ${line}`) },
    );
    const total = (values: (string | Buffer)[]) => values.reduce((a, v) => a + Buffer.byteLength(v), 0);
    return {
      paths: paths.length,
      meanBodyBytes: Math.round(total(Object.values(bodies.plain)) / paths.length),
      meanGzipBytes: Math.round(total(Object.values(bodies.gzip ?? {})) / paths.length),
      options,
      plain: side(plain),
      gzip: side(gzip),
    };
  } finally {
    await baseline.stop();
  }
}
