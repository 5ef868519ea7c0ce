// The wrk figure of the read benchmark (./wrk-load.ts): servers loaded in turn with 32
// connections rotating over a number of clusters, gzip and plain, and each server's throughput
// against the yardstick's, of the medians and round by round. Skipped, saying so, when wrk is
// not installed (`apt-get install -y wrk` on Debian and Ubuntu).
import { median } from './stats.ts';
import {
  compareWithWrk,
  ENCODINGS,
  type WrkComparison,
  type WrkRequest,
  wrkRoundRatios,
  type WrkServer,
  wrkVersion,
} from './wrk-load.ts';

export const WRK_CONNECTIONS = Number(process.env.BENCH_WRK_CONNECTIONS ?? 32);
export const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 10);
export const WRK_ROUNDS = Number(process.env.BENCH_WRK_ROUNDS ?? 5);
/** Clusters the requests rotate over. */
export const WRK_CLUSTERS = Number(process.env.BENCH_WRK_CLUSTERS ?? 200);

export interface WrkFigure<K extends string> {
  wrk: string;
  connections: number;
  seconds: number;
  rounds: number;
  clusters: number;
  comparison: WrkComparison<K | 'baseline'>;
  /** Per encoding and server: its req/s over the yardstick's, of the medians and of each round. */
  ratios: Record<string, Record<string, { ofMedians: number; rounds: number[]; medianOfRounds: number }>>;
}

/**
 * Loads `servers` and the yardstick (`baseline`) under wrk and prints the figure; undefined
 * (after saying why) when wrk is not installed.
 */
export async function measureWrkReads<K extends string>(
  servers: Record<K, WrkServer> & { baseline: WrkServer },
  requests: WrkRequest[],
  log: (line: string) => void,
): Promise<WrkFigure<K> | undefined> {
  const version = wrkVersion();
  if (version === undefined) {
    log('\nwrk is not installed: the wrk figure is skipped (apt-get install -y wrk)');
    return undefined;
  }
  log(
    `\n${version}: -t1 -c${WRK_CONNECTIONS}, ${WRK_ROUNDS} rounds of ${WRK_SECONDS}s per server and encoding, ` +
      `rotating over ${requests.length} clusters; wrk takes about one of the machine's cores itself`,
  );
  const comparison = await compareWithWrk(servers, requests, {
    connections: WRK_CONNECTIONS,
    seconds: WRK_SECONDS,
    rounds: WRK_ROUNDS,
    log,
  });
  const names = Object.keys(servers) as (K | 'baseline')[];
  const ratios: WrkFigure<K>['ratios'] = {};
  log(`\nwrk medians        req/s   p50 ms   p99 ms   load   us CPU/req`);
  for (const encoding of ENCODINGS) {
    const { runs, summary } = comparison[encoding];
    ratios[encoding] = {};
    for (const name of names) {
      const s = summary[name];
      const cells = [s.reqPerSec.toFixed(0).padStart(7), s.p50.toFixed(2).padStart(8), s.p99.toFixed(2).padStart(8)];
      cells.push(s.load.toFixed(2).padStart(6), s.cpuMicros?.toFixed(1).padStart(8) ?? '');
      log(`${encoding.padEnd(5)} ${name.padEnd(10)} ${cells.join(' ')}`);
    }
    for (const name of names) {
      if (name === 'baseline') continue;
      const rounds = wrkRoundRatios(runs[name], runs.baseline);
      const ofMedians = summary[name].reqPerSec / summary.baseline.reqPerSec;
      ratios[encoding][name] = { ofMedians, rounds, medianOfRounds: median(rounds) };
      log(
        `wrk ${encoding} ratio ${name}/baseline (req/s): ${ofMedians.toFixed(2)} of the medians; per round ` +
          `${rounds.map((r) => r.toFixed(2)).join(', ')}, median ${median(rounds).toFixed(2)}  (target >= 0.80)`,
      );
    }
  }
  return {
    wrk: version,
    connections: WRK_CONNECTIONS,
    seconds: WRK_SECONDS,
    rounds: WRK_ROUNDS,
    clusters: requests.length,
    comparison,
    ratios,
  };
}
