// The rollout benchmark's table (scripts/bench-rollout.ts): each figure next to what it is
// compared with and its target, in Markdown, as docs/performance.md shows it.
import { ENCODINGS, type RolloutReads } from './rollout-reads.ts';
import type { ReleaseResult } from './rollout-release.ts';
import type { RolloutStatusResult } from './rollout-status.ts';
import type { Spread } from './stats.ts';

export interface RolloutReport {
  options: { clusters: number; stepSize: number; repeat: number };
  reads: Pick<RolloutReads, 'byEncoding'>;
  status: Pick<RolloutStatusResult, 'ms' | 'stallWallMs' | 'stallCpuMs' | 'healthWaitMs' | 'bytes'>;
  release: ReleaseResult;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${count(n)} ms`;
const mib = (bytes: number) => `${count(bytes / 2 ** 20)} MiB`;
const range = (s: Spread, show: (n: number) => string) => `${show(s.median)} (${show(s.min)}–${show(s.max)})`;
/** "met" or "NOT met", by the figure against its target. */
const verdict = (met: boolean) => (met ? 'met' : '**NOT met**');

export function rolloutTable(report: RolloutReport): string {
  const { reads, status, release } = report;
  const { clusters, stepSize, repeat } = report.options;
  const rollout = release.sides.rollout;
  const none = release.sides['no rollout'];
  const rows = [
    '| figure | measured (median of ' + repeat + ', min–max) | compared with | target |',
    '|---|---:|---|---|',
    ...ENCODINGS.flatMap((encoding) => {
      const { summary, roundRatios, ratio, cpuRoundRatios, cpuRatio } = reads.byEncoding[encoding];
      const cpu = (n: number | undefined) => `${n?.toFixed(1) ?? '-'} µs`;
      return [
        `| reads, ${encoding}, with a rollout on ${count(clusters)} clusters ÷ without (req/s, per round) | ${ratio.toFixed(3)} ` +
          `(${roundRatios.map((r) => r.toFixed(3)).join(', ')}) | ${count(summary.rollout.reqPerSec)} against ` +
          `${count(summary['no rollout'].reqPerSec)} req/s; p99 ${summary.rollout.p99} / ${summary['no rollout'].p99} ms | ≥ 0.95: ${verdict(ratio >= 0.95)} |`,
        `| the service's CPU per read, ${encoding}, without ÷ with the rollout (per round) | ${cpuRatio.toFixed(3)} ` +
          `(${cpuRoundRatios.map((r) => r.toFixed(3)).join(', ')}) | ${cpu(summary.rollout.cpuMicros)} against ${cpu(summary['no rollout'].cpuMicros)} | ≥ 0.95: ${verdict(cpuRatio >= 0.95)} |`,
      ];
    }),
    `| \`GET /api/v2/gitops/rollouts/{id}\`, ${count(clusters)} clusters | ${range(status.ms, ms)} | ${mib(status.bytes)} of JSON | ≤ 100 ms: ${verdict(status.ms.median <= 100)} |`,
    `| longest event-loop stall meanwhile (probe, wall) | ${range(status.stallWallMs, ms)} | CPU ${range(status.stallCpuMs, ms)}; ` +
      `slowest \`/health\` ${range(status.healthWaitMs, ms)} | ≤ 30 ms: ${verdict(status.stallWallMs.median <= 30)} |`,
    `| a commit releasing a step of ${count(stepSize)}: served after | ${range(rollout.servedMs, ms)} | a namespace edit without a rollout: ` +
      `${range(none.servedMs, ms)} | |`,
    `| RSS after that commit | ${range(rollout.rssAfter, mib)} | without a rollout ${range(none.rssAfter, mib)}: ` +
      `${release.rssRatio.toFixed(3)}× (${release.rssRatios.map((r) => r.toFixed(3)).join(', ')}) | ≤ 1.05×: ${verdict(release.rssRatio <= 1.05)} |`,
  ];
  return rows.join('\n');
}
