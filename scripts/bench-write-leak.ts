// Whether writes leak: RSS and heap after successive REST writes at 10,000 clusters, each a
// commit, the readings taken after 100 writes and then every 250 up to the last; before each,
// the collector runs (twice, with a pause between: what is read is what is kept). The service
// runs in this process (scripts/bench/crud-fleet.ts), as for `npm run bench:write`. Usage:
//   npm run bench:leak -- [clusters=10000] [writes=1000]
import { readFileSync, rmSync } from 'node:fs';
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
  /** Memory of Buffers and other objects outside the heap that the heap's objects hold. */
  externalMiB: number;
  /** RSS of the process's own memory, and of files it maps (pages of the page cache). */
  anonMiB: number;
  fileMiB: number;
}

/** A field of /proc/self/status in MiB (Linux; 0 elsewhere). */
function statusMiB(field: string): number {
  try {
    const kB = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return Number(kB ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function reading(writes: number): Promise<Reading> {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 200));
  collect();
  const { rss, heapUsed, external } = process.memoryUsage();
  const mib = (bytes: number) => bytes / 2 ** 20;
  return {
    writes,
    rssMiB: mib(rss),
    heapMiB: mib(heapUsed),
    externalMiB: mib(external),
    anonMiB: statusMiB('RssAnon'),
    fileMiB: statusMiB('RssFile'),
  };
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
        `after ${String(n).padStart(5)} writes: RSS ${r.rssMiB.toFixed(0)} MiB ` +
          `(anonymous ${r.anonMiB.toFixed(0)}, files ${r.fileMiB.toFixed(0)}), ` +
          `heap used ${r.heapMiB.toFixed(0)} MiB, external ${r.externalMiB.toFixed(0)} MiB`,
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
