// The scale benchmark's output: one table with a column per fleet size (each figure on the
// row next to the floor or yardstick it is compared with), the JSON file, and the chart.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MachineInfo, SourceState } from '../machine.ts';
import { renderChart } from '../svg-chart.ts';
import type { CliResult } from './cli-tools.ts';
import type { CrudResult } from './crud.ts';
import type { HistoryWritesResult } from './history-writes.ts';
import type { MemoryResult } from './memory-passes.ts';
import type { ReadsResult } from './reads.ts';
import type { ReloadResult } from './reload.ts';
import type { StartupResult } from './startup.ts';

export interface SizeResult {
  clusters: number;
  components: number;
  repo: { files: number; yamlBytes: number; generateMs: number };
  /** 1-minute load average when this size's measurements began and ended: the machine is shared. */
  loadAverage: { atStart: number; atEnd?: number };
  startup?: StartupResult;
  memory?: MemoryResult;
  reload?: ReloadResult;
  reads?: ReadsResult;
  cli?: CliResult;
  crud?: CrudResult;
  /** A measurement that failed, by item; the others still ran. */
  errors: { item: string; message: string }[];
}

/** Back-to-back definition writes with and without the history, with the load beside them. */
export type HistoryWritesFigure = HistoryWritesResult & { loadAverage: { atStart: number; atEnd: number } };

export interface Report {
  generatedAt: string;
  command: string;
  machine: { atStart: MachineInfo; atEnd: MachineInfo };
  source: SourceState | undefined;
  options: Record<string, unknown>;
  targets: Record<string, string>;
  notes: string[];
  sizes: SizeResult[];
  historyWrites?: HistoryWritesFigure;
  /** With --against: the same run on that commit, made first. */
  against?: Report;
}

const count = (n: number) => n.toLocaleString('en-US');
const sec = (ms: number | undefined) =>
  ms === undefined || !Number.isFinite(ms) ? '–' : `${(ms / 1000).toFixed(2)} s`;
const msec = (ms: number | null | undefined, digits = 0) =>
  ms === undefined || ms === null || !Number.isFinite(ms) ? '–' : `${ms.toFixed(digits)} ms`;
const mb = (bytes: number | undefined) =>
  bytes === undefined || !Number.isFinite(bytes) ? '–' : `${(bytes / 2 ** 20).toFixed(0)} MB`;
const times = (r: number | undefined) => (r === undefined || !Number.isFinite(r) ? '–' : `${r.toFixed(2)}×`);
const bytes = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : `${count(Math.round(n))} B`);

type Row = [label: string, cell: (s: SizeResult) => string, comparedWith: string];

function rows(repeat: number): Row[] {
  return [
    ['record files (YAML on disk)', (s) => `${count(s.repo.files)} (${mb(s.repo.yamlBytes)})`, ''],
    [
      'load average (1 min), start…end of this size',
      (s) => `${s.loadAverage.atStart.toFixed(1)}…${s.loadAverage.atEnd?.toFixed(1) ?? '–'}`,
      'other work shares the cores',
    ],
    [
      `**1** start → ready (median of ${repeat})`,
      (s) => sec(s.startup?.readyMs.median),
      'fresh `node src/main.ts`, `ulimit -n 1024`',
    ],
    [
      'floor: read + parse (js-yaml), fresh process',
      (s) => sec(s.startup?.floor.wallMs.median),
      'runs alternated with the starts',
    ],
    ['start / floor', (s) => times(s.startup?.ratioToFloor), ''],
    ['start per cluster', (s) => msec(s.startup?.msPerCluster, 3), ''],
    ['**2** RSS at ready', (s) => mb(s.memory?.atReadyBytes), ''],
    ['RSS of the floor, parsed records held', (s) => mb(s.memory?.floorRssBytes), 'yardstick for RSS'],
    ['RSS after plain pass (every endpoint)', (s) => mb(s.memory?.afterPlainBytes), ''],
    ['RSS after gzip pass', (s) => mb(s.memory?.afterGzipBytes), ''],
    ['after gzip / at ready', (s) => times(s.memory?.ratioAfterGzipToReady), ''],
    ['RSS at ready per cluster', (s) => bytes(s.memory?.atReadyBytesPerCluster), ''],
    ['RSS growth per cluster (both passes)', (s) => bytes(s.memory?.growthBytesPerCluster), ''],
    ['fleet list', (s) => fleetList(s), '422 → read as `?shard=i/n` parts'],
    [
      `**3** one file changed: write → new revision (median of ${repeat})`,
      (s) => msec(s.reload?.revisionMs),
      'start → ready above',
    ],
    ['longest /health stall during the reload', (s) => msec(s.reload?.stallMs), '/health median at rest, next row'],
    ['/health median at rest', (s) => msec(s.reload?.healthAtRestMs, 2), ''],
    ['read p99, other clusters, during the reload', (s) => msec(s.reload?.readP99Ms, 1), 'read p99 at rest, next row'],
    ['read p99, other clusters, at rest', (s) => msec(s.reload?.readP99AtRestMs, 1), ''],
    ['slowest read of other clusters during the reload', (s) => msec(s.reload?.readMaxMs), 'the /health stall'],
    ['unaffected cluster ETag unchanged', (s) => s.reload?.etagUnchanged ?? '–', 'must be all'],
    [
      '**4** crud PATCH p50',
      (s) => (s.crud ? `${msec(s.crud.p50, 1)} (n=${s.crud.writes.length})` : '–'),
      'p50 at the smallest size',
    ],
    ['PATCH p50 / p50 at the smallest size', (s) => times(s.crud?.ratioToSmallest), 'target ≤ 1.2× at every size'],
    ['**5** validate', (s) => sec(s.cli?.validate.wallMs.median), 'fresh process'],
    ['floor (alternated with validate and diff)', (s) => sec(s.cli?.floor.wallMs.median), ''],
    ['validate / floor', (s) => times(s.cli?.validateToFloor), 'target ≤ 1.5×'],
    ['diff HEAD~1 HEAD (catalog bump)', (s) => sec(s.cli?.diff.wallMs.median), ''],
    ['diff / validate', (s) => times(s.cli?.diffToValidate), 'target ≤ 2×'],
    [
      '**6** reads plain: req/s ratio (service / node:http)',
      (s) => readCell(s.reads?.plain),
      'minimal node:http, same bytes; median of per-round ratios',
    ],
    ['reads gzip: req/s ratio (service / node:http)', (s) => readCell(s.reads?.gzip), ''],
  ];
}

function fleetList(s: SizeResult): string {
  const read = s.memory?.plain.fleetList;
  if (!read) return '–';
  return read.wholeStatus === 200 ? '200, whole' : `${read.wholeStatus}, ${read.shards} shards`;
}

/** The median of the per-round ratios (each round runs both back to back), then the req/s medians. */
function readCell(side: ReadsResult['plain'] | undefined): string {
  if (!side) return '–';
  const k = (v: number) => `${(v / 1000).toFixed(1)}k`;
  return `${side.medianRoundRatio.toFixed(2)} (${k(side.service.reqPerSec)} / ${k(side.baseline.reqPerSec)})`;
}

/** The table as Markdown, so it can go into the README as printed. */
export function table(report: Report, repeat: number): string {
  const sizes = report.sizes;
  const lines = [
    `| figure | ${sizes.map((s) => `${count(s.clusters)} clusters`).join(' | ')} | compared with |`,
    `|---|${sizes.map(() => '---:').join('|')}|---|`,
    ...rows(repeat).map(([label, cell, note]) => `| ${label} | ${sizes.map(cell).join(' | ')} | ${note} |`),
  ];
  for (const s of sizes)
    for (const e of s.errors) lines.push(`\n${count(s.clusters)} clusters, ${e.item}: FAILED: ${e.message}`);
  const h = report.historyWrites;
  if (h) {
    const load = `load ${h.loadAverage.atStart.toFixed(1)} → ${h.loadAverage.atEnd.toFixed(1)}`;
    lines.push(
      '',
      `| back-to-back writes at ${count(h.clusters)} clusters (${h.writes} each, ${load}) | with the history | ` +
        'without | ratio, median of the rounds (target ≤ 1.1×) |',
      '|---|---:|---:|---:|',
      ...(
        [
          ['`PUT /namespaces/{id}` p50', h.putNamespace],
          ['`PATCH /platform_components/{id}` p50', h.patchCatalog],
        ] as const
      ).map(
        ([label, f]) => `| ${label} | ${msec(f.withHistory, 1)} | ${msec(f.withoutHistory, 1)} | ${times(f.ratio)} |`,
      ),
    );
  }
  return lines.join('\n');
}

/** Two runs of one sitting in one table: each size's cell is the older commit's figure, then this one's. */
export function comparisonTable(before: Report, after: Report, repeat: number): string {
  const commit = (r: Report) => r.source?.commit.slice(0, 12) ?? 'this checkout';
  const sizes = after.sizes;
  const old = (s: SizeResult) => before.sizes.find((b) => b.clusters === s.clusters);
  const lines = [
    `Each cell: ${commit(before)} (measured first) → ${commit(after)}.`,
    '',
    `| figure | ${sizes.map((s) => `${count(s.clusters)} clusters`).join(' | ')} | compared with |`,
    `|---|${sizes.map(() => '---:').join('|')}|---|`,
    ...rows(repeat).map(([label, cell, note]) => {
      const pair = (s: SizeResult) => {
        const was = old(s);
        return `${was ? cell(was) : '–'} → ${cell(s)}`;
      };
      return `| ${label} | ${sizes.map(pair).join(' | ')} | ${note} |`;
    }),
  ];
  for (const [name, report] of [
    [commit(before), before],
    [commit(after), after],
  ] as const)
    for (const s of report.sizes)
      for (const e of s.errors) lines.push(`\n${name}, ${count(s.clusters)} clusters, ${e.item}: FAILED: ${e.message}`);
  return lines.join('\n');
}

/** Floats rounded to 3 decimals: the file is read by people and diffed between runs. */
export function writeJson(path: string, report: Report): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, (_key, value: unknown) => roundedForJson(value), 2)}\n`);
}

export function writeChart(path: string, report: Report): void {
  const sizes = report.sizes;
  const pick = (f: (s: SizeResult) => number | undefined) => sizes.map((s) => f(s) ?? null);
  const toMb = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / 2 ** 20);
  const m = report.machine.atStart;
  const svg = renderChart({
    title: 'gitops-config-api at fleet scale',
    subtitle:
      `${sizes[0]?.components ?? 25} components per cluster · node ${m.node} · ${m.cores} cores · ` +
      `${report.generatedAt.slice(0, 10)}`,
    xTitle: 'fleet size (clusters; categories, not to scale)',
    xLabels: sizes.map((s) => count(s.clusters)),
    panels: [
      {
        title: 'start → ready',
        unit: 's',
        digits: 2,
        series: [
          {
            name: 'service (median)',
            color: '#1f77b4',
            values: pick((s) => (s.startup ? s.startup.readyMs.median / 1000 : undefined)),
          },
          {
            name: 'floor: read + parse',
            color: '#7f7f7f',
            dashed: true,
            values: pick((s) => (s.startup ? s.startup.floor.wallMs.median / 1000 : undefined)),
          },
        ],
      },
      {
        title: 'resident memory (RSS)',
        unit: 'MB',
        digits: 0,
        series: [
          { name: 'at ready', color: '#2ca02c', values: pick((s) => toMb(s.memory?.atReadyBytes)) },
          { name: 'after plain + gzip passes', color: '#d62728', values: pick((s) => toMb(s.memory?.afterGzipBytes)) },
          {
            name: 'floor: parsed records',
            color: '#7f7f7f',
            dashed: true,
            values: pick((s) => toMb(s.memory?.floorRssBytes)),
          },
        ],
      },
    ],
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, svg);
}

/** Fractions to three places in the report's JSON: more would be noise. */
function roundedForJson(value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(3)) : value;
}
