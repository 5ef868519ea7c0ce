// The rollout benchmark's table (scripts/bench/rollout-table.ts): every figure with its spread,
// what it is compared with, and whether its target is met — said plainly when it is not.
import { describe, expect, it } from 'vitest';
import { type RolloutReport, rolloutTable } from '../../scripts/bench/rollout-table.ts';
import { spread } from '../../scripts/bench/stats.ts';

const load = (reqPerSec: number, p99: number, cpuMicros: number) => ({ reqPerSec, p50: 1, p99, errors: 0, cpuMicros });
const MIB = 2 ** 20;

function report(readRatio: { gzip: number; plain: number }, statusMs: number[], stallMs: number[], rssAfter: [number[], number[]]): RolloutReport {
  const side = (rss: number[], served: number[]) => ({
    runs: [],
    servedMs: spread(served),
    rssBefore: spread(rss),
    rssAfter: spread(rss),
  });
  const rssRatios = rssAfter[0].map((r, k) => r / rssAfter[1][k]!);
  return {
    options: { clusters: 50_000, stepSize: 5000, repeat: 3 },
    reads: {
      byEncoding: {
        gzip: { runs: { rollout: [], 'no rollout': [] }, summary: { rollout: load(9000 * readRatio.gzip, 20, 60), 'no rollout': load(9000, 18, 58.5) }, roundRatios: [1, readRatio.gzip, 0.9], ratio: readRatio.gzip, cpuRoundRatios: [0.975], cpuRatio: 0.975 },
        plain: { runs: { rollout: [], 'no rollout': [] }, summary: { rollout: load(3000 * readRatio.plain, 40, 100), 'no rollout': load(3000, 38, 80) }, roundRatios: [readRatio.plain], ratio: readRatio.plain, cpuRoundRatios: [0.8], cpuRatio: 0.8 },
      },
    },
    status: { ms: spread(statusMs), stallWallMs: spread(stallMs), stallCpuMs: spread(stallMs.map((s) => s / 2)), healthWaitMs: spread([7, 8, 9]), bytes: 6 * MIB },
    release: {
      sides: { rollout: side(rssAfter[0], [400, 420, 450]), 'no rollout': side(rssAfter[1], [300, 310, 320]) },
      rssRatios,
      rssRatio: spread(rssRatios).median,
    },
  };
}

describe('the rollout benchmark table', () => {
  it('shows each figure as median (min–max) beside what it is compared with, and whether its target is met', () => {
    const table = rolloutTable(report({ gzip: 0.97, plain: 1.01 }, [80, 60, 95], [12, 20, 9], [[1000 * MIB, 1010 * MIB, 1020 * MIB], [1000 * MIB, 1000 * MIB, 1000 * MIB]]));
    expect(table).toContain('| reads, gzip, with a rollout on 50,000 clusters ÷ without (req/s, per round) | 0.970 (1.000, 0.970, 0.900) | 8,730 against 9,000 req/s; p99 20 / 18 ms | ≥ 0.95: met |');
    expect(table).toContain("| the service's CPU per read, gzip, without ÷ with the rollout (per round) | 0.975 (0.975) | 60.0 µs against 58.5 µs | ≥ 0.95: met |");
    expect(table).toContain('| reads, plain, with a rollout on 50,000 clusters ÷ without (req/s, per round) | 1.010 (1.010) | 3,030 against 3,000 req/s; p99 40 / 38 ms | ≥ 0.95: met |');
    expect(table).toContain('| `GET /api/v2/gitops/rollouts/{id}`, 50,000 clusters | 80 ms (60 ms–95 ms) | 6 MiB of JSON | ≤ 100 ms: met |');
    expect(table).toContain('| longest event-loop stall meanwhile (probe, wall) | 12 ms (9 ms–20 ms) | CPU 6 ms (5 ms–10 ms); slowest `/health` 8 ms (7 ms–9 ms) | ≤ 30 ms: met |');
    expect(table).toContain('| a commit releasing a step of 5,000: served after | 420 ms (400 ms–450 ms) | a namespace edit without a rollout: 310 ms (300 ms–320 ms) |');
    expect(table).toContain('| RSS after that commit | 1,010 MiB (1,000 MiB–1,020 MiB) | without a rollout 1,000 MiB (1,000 MiB–1,000 MiB): 1.010× (1.000, 1.010, 1.020) | ≤ 1.05×: met |');
    expect(table.split('\n').filter((row) => row.includes('NOT met')).map((row) => row.split(' | ')[0])).toEqual([
      "| the service's CPU per read, plain, without ÷ with the rollout (per round)",
    ]);
  });

  it('says NOT met for each figure past its target', () => {
    const table = rolloutTable(report({ gzip: 0.9, plain: 0.95 }, [150, 120, 130], [31, 40, 50], [[1100 * MIB, 1100 * MIB, 1100 * MIB], [1000 * MIB, 1000 * MIB, 1000 * MIB]]));
    const missed = table.split('\n').filter((row) => row.includes('**NOT met**'));
    expect(missed.map((row) => row.split(' | ')[0])).toEqual([
      '| reads, gzip, with a rollout on 50,000 clusters ÷ without (req/s, per round)',
      "| the service's CPU per read, plain, without ÷ with the rollout (per round)",
      '| `GET /api/v2/gitops/rollouts/{id}`, 50,000 clusters',
      '| longest event-loop stall meanwhile (probe, wall)',
      '| RSS after that commit',
    ]);
  });
});
