// Item 2 of the scale benchmark: the service's resident memory at ready, after a plain pass
// that GETs every endpoint of every cluster and the fleet list, and after the same pass with
// Accept-Encoding: gzip (gzip bodies may be built on first demand and kept).
import { forEachLimit, HttpClient } from '../http-client.ts';
import type { NodeProcess } from '../node-process.ts';
import { procMemory } from '../proc-memory.ts';
import { AUTH, clusterPath, ENDPOINTS, FLEET_LIST, type Fleet } from './fleet.ts';

export interface FleetListRead {
  /** Status of the whole listing: 200, or 422 response_too_large on a large fleet. */
  wholeStatus: number;
  /** Parts it was then read in (?shard=i/n), 1 when whole. */
  shards: number;
  bytes: number;
}

export interface PassResult {
  requests: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Body bytes as sent (compressed in the gzip pass). */
  bytes: number;
  ms: number;
  fleetList: FleetListRead;
}

export interface MemoryResult {
  atReadyBytes: number;
  afterPlainBytes: number;
  afterGzipBytes: number;
  /** The yardstick: RSS of the floor process holding every parsed record. */
  floorRssBytes: number;
  ratioAfterGzipToReady: number;
  growthBytesPerCluster: number;
  atReadyBytesPerCluster: number;
  plain: PassResult;
  gzip: PassResult;
}

/** Reads the fleet list whole, or, when it is refused as too large, in as many shards as the refusal asks for. */
async function readFleetList(client: HttpClient, headers: Record<string, string>): Promise<FleetListRead> {
  const whole = await client.get(FLEET_LIST, headers);
  if (whole.status === 200) return { wholeStatus: 200, shards: 1, bytes: whole.body.length };
  if (whole.status !== 422)
    throw new Error(`${FLEET_LIST}: ${whole.status} ${whole.body.toString('utf8').slice(0, 200)}`);
  // The refusal names the smallest shard count that fits ("n = 3 or more"); double it until every part fits.
  let shards = Number(/n = (\d+)/.exec(whole.body.toString('utf8'))?.[1] ?? 2);
  for (;;) {
    let bytes = 0;
    let fits = true;
    for (let i = 0; i < shards && fits; i++) {
      const part = await client.get(`${FLEET_LIST}?shard=${i}/${shards}`, headers);
      if (part.status === 422) fits = false;
      else if (part.status !== 200) throw new Error(`${FLEET_LIST}?shard=${i}/${shards}: ${part.status}`);
      bytes += part.body.length;
    }
    if (fits) return { wholeStatus: whole.status, shards, bytes };
    shards *= 2;
  }
}

async function pass(
  client: HttpClient,
  fleet: Fleet,
  headers: Record<string, string>,
  concurrency: number,
): Promise<PassResult> {
  const started = performance.now();
  const statuses: Record<string, number> = {};
  let bytes = 0;
  const paths = Array.from({ length: fleet.clusters }, (_, i) => ENDPOINTS.map((e) => clusterPath(i, e))).flat();
  await forEachLimit(paths, concurrency, async (path) => {
    const answer = await client.get(path, headers);
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    bytes += answer.body.length;
  });
  const fleetList = await readFleetList(client, headers);
  return { requests: paths.length, statuses, bytes, ms: performance.now() - started, fleetList };
}

export async function measureMemory(
  fleet: Fleet,
  service: NodeProcess,
  atReadyBytes: number,
  floorRssBytes: number,
  concurrency: number,
  log: (line: string) => void,
): Promise<MemoryResult> {
  const client = new HttpClient(service.port, concurrency, AUTH);
  const rss = () => procMemory(service.pid)?.rss ?? NaN;
  try {
    const plain = await pass(client, fleet, {}, concurrency);
    const afterPlainBytes = rss();
    log(
      `  plain pass: ${plain.requests + plain.fleetList.shards} requests in ${(plain.ms / 1000).toFixed(1)} s, RSS ` +
        `${(afterPlainBytes / 2 ** 20).toFixed(0)} MB`,
    );
    const gzip = await pass(client, fleet, { 'accept-encoding': 'gzip' }, concurrency);
    const afterGzipBytes = rss();
    log(
      `  gzip pass: ${gzip.requests + gzip.fleetList.shards} requests in ${(gzip.ms / 1000).toFixed(1)} s, RSS ` +
        `${(afterGzipBytes / 2 ** 20).toFixed(0)} MB`,
    );
    return {
      atReadyBytes,
      afterPlainBytes,
      afterGzipBytes,
      floorRssBytes,
      ratioAfterGzipToReady: afterGzipBytes / atReadyBytes,
      growthBytesPerCluster: (afterGzipBytes - atReadyBytes) / fleet.clusters,
      atReadyBytesPerCluster: atReadyBytes / fleet.clusters,
      plain,
      gzip,
    };
  } finally {
    client.close();
  }
}
