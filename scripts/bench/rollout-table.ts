// The rollout benchmark's table (scripts/bench-rollout.ts): each figure next to what it is
// compared with and its target, in Markdown, as docs/performance.md shows it.
import type { RolloutReads } from './rollout-reads.ts';
import { ENCODINGS } from './rollout-record.ts';
import type { ReleaseResult } from './rollout-release.ts';
import type { RolloutStatusResult } from './rollout-status.ts';
import type { Spread } from './stats.ts';

export interface RolloutReport {
  options: { clusters: number; stepSize: number; repeat: number };
  reads: Pick<RolloutReads, 'byEncoding'>;
  status: Pick<RolloutStatusResult, 'ms' | 'cpuMs' | 'stallWallMs' | 'stallCpuMs' | 'healthWaitMs' | 'bytes'>;
  release: ReleaseResult;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${count(n)} ms`;
const mib = (bytes: number) => `${count(bytes / 2 ** 20)} MiB`;
const range = (s: Spread, show: (n: number) => string) => `${show(s.median)} (${show(s.min)}–${show(s.max)})`;
/** "met" or "NOT met", by the figure against its target. */
const verdict = (met: boolean) => (met ? 'met' : '**NOT met**');

/** A row of the table from its cells. */
const row = (...cells: string[]) => `| ${cells.join(' | ')} |`;
const ratios = (values: number[]) => values.map((r) => r.toFixed(3)).join(', ');

export function rolloutTable(report: RolloutReport): string {
  const { reads, status, release } = report;
  const { clusters, stepSize, repeat } = report.options;
  const rollout = release.sides.rollout;
  const none = release.sides['no rollout'];
  const readRows = ENCODINGS.flatMap((encoding) => {
    const { summary, roundRatios, ratio, cpuRoundRatios, cpuRatio } = reads.byEncoding[encoding];
    const cpu = (n: number | undefined) => `${n?.toFixed(1) ?? '-'} µs`;
    const [withIt, without] = [summary.rollout, summary['no rollout']];
    return [
      row(
        `reads, ${encoding}, with a rollout on ${count(clusters)} clusters ÷ without (req/s, per round)`,
        `${ratio.toFixed(3)} (${ratios(roundRatios)})`,
        `${count(withIt.reqPerSec)} against ${count(without.reqPerSec)} req/s; p99 ${withIt.p99} / ${without.p99} ms`,
        `≥ 0.95: ${verdict(ratio >= 0.95)}`,
      ),
      row(
        `the service's CPU per read, ${encoding}, without ÷ with the rollout (per round)`,
        `${cpuRatio.toFixed(3)} (${ratios(cpuRoundRatios)})`,
        `${cpu(withIt.cpuMicros)} against ${cpu(without.cpuMicros)}`,
        `≥ 0.95: ${verdict(cpuRatio >= 0.95)}`,
      ),
    ];
  });
  return [
    row('figure', `measured (median of ${repeat}, min–max)`, 'compared with', 'target'),
    '|---|---:|---|---|',
    ...readRows,
    row(
      `\`GET /api/v2/gitops/rollouts/{id}\`, ${count(clusters)} clusters`,
      range(status.ms, ms),
      `the service's CPU meanwhile ${range(status.cpuMs, ms)}; ${mib(status.bytes)} of JSON`,
      `≤ 100 ms: ${verdict(status.ms.median <= 100)}`,
    ),
    row(
      'longest event-loop stall meanwhile (probe, wall)',
      range(status.stallWallMs, ms),
      `CPU ${range(status.stallCpuMs, ms)}; slowest \`/health\` ${range(status.healthWaitMs, ms)}`,
      `≤ 30 ms: ${verdict(status.stallWallMs.median <= 30)}`,
    ),
    row(
      `a commit releasing a step of ${count(stepSize)}: served after`,
      range(rollout.servedMs, ms),
      `a namespace edit without a rollout: ${range(none.servedMs, ms)}`,
      '',
    ),
    row(
      'RSS after that commit',
      range(rollout.rssAfter, mib),
      `without a rollout ${range(none.rssAfter, mib)}: ${release.rssRatio.toFixed(3)}× (${ratios(release.rssRatios)})`,
      `≤ 1.05×: ${verdict(release.rssRatio <= 1.05)}`,
    ),
  ].join('\n');
}
