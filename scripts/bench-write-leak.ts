// Whether writes leak: RSS and heap after successive REST writes at 10,000 clusters, each a
// commit, the readings taken after 100 writes and then every 250 up to the last; before each,
// the collector runs (twice, with a pause between: what is read is what is kept). The service
// runs in this process (scripts/bench/crud-fleet.ts), as for `npm run bench:write`. Usage:
//   npm run bench:leak -- [clusters=10000] [writes=1000]
import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { crudFleetDir, startCrudFleet } from './bench/crud-fleet.ts';
import { clusterPatch, latencyLine, timedWrite } from './bench/rest-write.ts';

const [clustersArg = '10000', writesArg = '1000'] = process.argv.slice(2);
const CLUSTERS = Number(clustersArg);
const WRITES = Number(writesArg);
const TOKEN = 'bench-leak-token';
const FIRST_READING = 100;
const EVERY = 250;

// The collector on demand, without a flag on the command line.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

interface Reading {
  writes: number;
  rssMiB: number;
  heapMiB: number;
}

async function reading(writes: number): Promise<Reading> {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 200));
  collect();
  const { rss, heapUsed } = process.memoryUsage();
  return { writes, rssMiB: rss / 2 ** 20, heapMiB: heapUsed / 2 ** 20 };
}

const dir = crudFleetDir('bench-leak-');
try {
  const { service } = await startCrudFleet(dir, CLUSTERS, TOKEN);
  const url = (i: number) => `${service.url}/clusters/cluster-${String(i).padStart(5, '0')}`;
  // Warm-up: JIT, file system caches, the Git index cache.
  for (let i = 0; i < 10; i++)
    await timedWrite(url(i * 7), 'PATCH', TOKEN, clusterPatch(i * 7, i), 'application/merge-patch+json');
  const readings: Reading[] = [];
  const ms: number[] = [];
  for (let n = 1; n <= WRITES; n++) {
    const target = (n * 4099) % CLUSTERS; // spread over the fleet
    ms.push(await timedWrite(url(target), 'PATCH', TOKEN, clusterPatch(target, n), 'application/merge-patch+json'));
    if (n === FIRST_READING || (n > FIRST_READING && (n % EVERY === 0 || n === WRITES))) {
      const r = await reading(n);
      readings.push(r);
      console.log(
        `after ${String(n).padStart(5)} writes: RSS ${r.rssMiB.toFixed(0)} MiB, heap used ${r.heapMiB.toFixed(0)} MiB`,
      );
    }
  }
  console.log(latencyLine('PATCH /clusters/{id} (merge patch)', ms));
  const first = readings[0];
  const last = readings.at(-1)!;
  console.log(
    `RSS after ${last.writes} writes / after ${first.writes}: ${(last.rssMiB / first.rssMiB).toFixed(3)}x ` +
      `(target <= 1.1x); heap used ${(last.heapMiB / first.heapMiB).toFixed(3)}x`,
  );
  await service.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
