// Item 4 of the scale benchmark: p50 of crud-mode merge-patch writes at each fleet size,
// against the p50 at the smallest size. Every size gets its own crud service on a Git copy
// of its repo; the services run at once and the writes go to them in alternating rounds,
// so the sizes are compared side by side rather than minutes apart on a machine whose load
// changes.
import { join } from 'node:path';
import { git } from '../git.ts';
import { type NodeProcess, SERVICE_MAIN, startNodeProcess, untilReady } from '../node-process.ts';
import { clusterPatch, timedWrite } from '../rest-write.ts';
import { median, percentile } from '../stats.ts';
import { type Fleet, MAX_OPEN_FILES, serviceEnv, WRITE_TOKEN } from './fleet.ts';

const WARMUP = 10;

export interface CrudResult {
  clusters: number;
  /** Time the crud service took to start, ms (one start). */
  startMs: number;
  writes: number[];
  p50: number;
  p90: number;
  p99: number;
  /** p50 of each round. */
  roundP50s: number[];
  /** The yardstick: p50 at the smallest size of the run. */
  smallestP50: number;
  ratioToSmallest: number;
  /** p50 / smallest p50 within each round (both measured back to back). */
  roundRatios: number[];
  /** Every write made exactly one commit and left the working tree clean. */
  commitsOk: boolean;
}

/** A Git copy of the fleet's repo for crud mode to commit to (the original stays as generated). */
export function prepareCrudCopy(fleet: Fleet): string {
  const dir = join(fleet.root, 'crud');
  git(fleet.root, 'clone', '-q', `file://${fleet.repo}`, dir);
  return dir;
}

interface Target {
  clusters: number;
  repo: string;
  service: NodeProcess;
  /** Spawn to /ready 200, ms. */
  readyMs: number;
  serial: number;
  rounds: number[][];
  commitsBefore: number;
}

const commitCount = (repo: string) => Number(git(repo, 'rev-list', '--count', 'HEAD'));

async function write(t: Target, warmup: boolean): Promise<number> {
  const i = t.serial++;
  const target = warmup ? (i * 7) % t.clusters : (i * 4099) % t.clusters; // spread over the fleet
  const url = `http://127.0.0.1:${t.service.port}/clusters/cluster-${String(target).padStart(5, '0')}`;
  return timedWrite(url, 'PATCH', WRITE_TOKEN, clusterPatch(target, i), 'application/merge-patch+json');
}

export async function measureCrud(
  copies: { clusters: number; repo: string }[],
  writes: number,
  rounds: number,
  log: (line: string) => void,
): Promise<CrudResult[]> {
  const targets: Target[] = [];
  try {
    for (const { clusters, repo } of copies) {
      const service = await startNodeProcess(SERVICE_MAIN, {
        env: serviceEnv(repo, { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN }),
        maxOpenFiles: MAX_OPEN_FILES,
      });
      const readyMs = await untilReady(service);
      log(`  crud service on ${clusters} clusters ready in ${(readyMs / 1000).toFixed(2)} s`);
      targets.push({ clusters, repo, service, readyMs, serial: 0, rounds: [], commitsBefore: commitCount(repo) });
    }
    // Warm-up: JIT, file system caches, the Git index cache.
    for (const t of targets) for (let i = 0; i < WARMUP; i++) await write(t, true);
    const perRound = Math.ceil(writes / rounds);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        const ms: number[] = [];
        for (let i = 0; i < perRound; i++) ms.push(await write(t, false));
        t.rounds.push(ms);
        log(`  round ${round + 1} ${String(t.clusters).padStart(6)} clusters: PATCH p50 ${median(ms).toFixed(1)} ms`);
      }
    }
  } finally {
    await Promise.all(targets.map((t) => t.service.stop()));
  }
  const smallest = targets[0];
  const smallestP50 = median(smallest.rounds.flat());
  return targets.map((t) => {
    const all = t.rounds.flat();
    const sorted = [...all].sort((a, b) => a - b);
    const roundP50s = t.rounds.map((ms) => median(ms));
    const status = git(t.repo, 'status', '--porcelain');
    return {
      clusters: t.clusters,
      startMs: t.readyMs,
      writes: all,
      p50: median(all),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      roundP50s,
      smallestP50,
      ratioToSmallest: median(all) / smallestP50,
      roundRatios: roundP50s.map((p, r) => p / median(smallest.rounds[r])),
      commitsOk: commitCount(t.repo) - t.commitsBefore === t.serial && status === '',
    };
  });
}
