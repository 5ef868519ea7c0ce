// The rollout benchmark's table (scripts/bench/rollout-table.ts): every figure with its spread,
// what it is compared with, and whether its target is met — said plainly when it is not.
import { describe, expect, it } from 'vitest';
import type { ReadComparison } from '../../scripts/bench/rollout-reads.ts';
import { type RolloutReport, rolloutTable } from '../../scripts/bench/rollout-table.ts';
import { spread } from '../../scripts/bench/stats.ts';

const MIB = 2 ** 20;
const load = (reqPerSec: number, p99: number, cpuMicros: number) => ({ reqPerSec, p50: 1, p99, errors: 0, cpuMicros });

/** Reads at `ratio` of the throughput and `cpu` of the CPU per read without the rollout. */
function reads(ratio: number, roundRatios: number[], cpu: number, base: { reqPerSec: number; cpu: number }) {
  const summary = {
    rollout: load(base.reqPerSec * ratio, 20, base.cpu / cpu),
    'no rollout': load(base.reqPerSec, 18, base.cpu),
  };
  const runs = { rollout: [], 'no rollout': [] };
  const comparison: ReadComparison = { runs, summary, roundRatios, ratio, cpuRoundRatios: [cpu], cpuRatio: cpu };
  return comparison;
}

interface Figures {
  gzip: [number, number];
  plain: [number, number];
  statusMs: number[];
  stallMs: number[];
  rssMiB: [number[], number[]];
}

function report(f: Figures): RolloutReport {
  const side = (rssMiB: number[], served: number[]) => {
    const rss = spread(rssMiB.map((m) => m * MIB));
    return { runs: [], servedMs: spread(served), rssBefore: rss, rssAfter: rss };
  };
  const rssRatios = f.rssMiB[0].map((r, k) => r / f.rssMiB[1][k]);
  return {
    options: { clusters: 50_000, stepSize: 5000, repeat: 3 },
    reads: {
      byEncoding: {
        gzip: reads(f.gzip[0], [1, f.gzip[0], 0.9], f.gzip[1], { reqPerSec: 9000, cpu: 58.5 }),
        plain: reads(f.plain[0], [f.plain[0]], f.plain[1], { reqPerSec: 3000, cpu: 80 }),
      },
    },
    status: {
      ms: spread(f.statusMs),
      cpuMs: spread(f.statusMs.map((s) => s - 10)),
      stallWallMs: spread(f.stallMs),
      stallCpuMs: spread(f.stallMs.map((s) => s / 2)),
      healthWaitMs: spread([7, 8, 9]),
      bytes: 6 * MIB,
    },
    release: {
      sides: { rollout: side(f.rssMiB[0], [400, 420, 450]), 'no rollout': side(f.rssMiB[1], [300, 310, 320]) },
      rssRatios,
      rssRatio: spread(rssRatios).median,
    },
  };
}

/** The table's rows by their first cell, each row's cells. */
function rows(table: string): Map<string, string[]> {
  const lines = table.split('\n').slice(2);
  return new Map(lines.map((line) => line.slice(2, -2).split(' | ')).map((cells) => [cells[0], cells.slice(1)]));
}

const GZIP = 'reads, gzip, with a rollout on 50,000 clusters ÷ without (req/s, per round)';
const GZIP_CPU = "the service's CPU per read, gzip, without ÷ with the rollout (per round)";
const PLAIN = 'reads, plain, with a rollout on 50,000 clusters ÷ without (req/s, per round)';
const PLAIN_CPU = "the service's CPU per read, plain, without ÷ with the rollout (per round)";
const STATUS = '`GET /api/v2/gitops/rollouts/{id}`, 50,000 clusters';
const STALL = 'longest event-loop stall meanwhile (probe, wall)';
const SERVED = 'a commit releasing a step of 5,000: served after';
const RSS = 'RSS after that commit';

describe('the rollout benchmark table', () => {
  const met = report({
    gzip: [0.97, 0.975],
    plain: [1.01, 0.8],
    statusMs: [80, 60, 95],
    stallMs: [12, 20, 9],
    rssMiB: [
      [1000, 1010, 1020],
      [1000, 1000, 1000],
    ],
  });

  it('shows each figure as median (min–max) beside what it is compared with, and whether its target is met', () => {
    const table = rows(rolloutTable(met));
    expect([...table.keys()]).toEqual([GZIP, GZIP_CPU, PLAIN, PLAIN_CPU, STATUS, STALL, SERVED, RSS]);
    expect(table.get(GZIP)).toEqual([
      '0.970 (1.000, 0.970, 0.900)',
      '8,730 against 9,000 req/s; p99 20 / 18 ms',
      '≥ 0.95: met',
    ]);
    expect(table.get(GZIP_CPU)).toEqual(['0.975 (0.975)', '60.0 µs against 58.5 µs', '≥ 0.95: met']);
    expect(table.get(PLAIN)).toEqual(['1.010 (1.010)', '3,030 against 3,000 req/s; p99 20 / 18 ms', '≥ 0.95: met']);
    expect(table.get(STATUS)).toEqual([
      '80 ms (60 ms–95 ms)',
      "the service's CPU meanwhile 70 ms (50 ms–85 ms); 6 MiB of JSON",
      '≤ 100 ms: met',
    ]);
    expect(table.get(STALL)).toEqual([
      '12 ms (9 ms–20 ms)',
      'CPU 6 ms (5 ms–10 ms); slowest `/health` 8 ms (7 ms–9 ms)',
      '≤ 30 ms: met',
    ]);
    expect(table.get(SERVED)).toEqual([
      '420 ms (400 ms–450 ms)',
      'a namespace edit without a rollout: 310 ms (300 ms–320 ms)',
      '',
    ]);
    expect(table.get(RSS)).toEqual([
      '1,010 MiB (1,000 MiB–1,020 MiB)',
      'without a rollout 1,000 MiB (1,000 MiB–1,000 MiB): 1.010× (1.000, 1.010, 1.020)',
      '≤ 1.05×: met',
    ]);
    expect(table.get(PLAIN_CPU)).toEqual(['0.800 (0.800)', '100.0 µs against 80.0 µs', '≥ 0.95: **NOT met**']);
  });

  it('says NOT met for each figure past its target', () => {
    const missed = report({
      gzip: [0.9, 0.99],
      plain: [0.95, 0.95],
      statusMs: [150, 120, 130],
      stallMs: [31, 40, 50],
      rssMiB: [
        [1100, 1100, 1100],
        [1000, 1000, 1000],
      ],
    });
    const table = rows(rolloutTable(missed));
    const notMet = [...table].filter(([, cells]) => cells.at(-1)!.includes('**NOT met**')).map(([name]) => name);
    expect(notMet).toEqual([GZIP, STATUS, STALL, RSS]);
  });
});
