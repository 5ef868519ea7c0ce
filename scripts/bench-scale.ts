// Fleet-size benchmark: `npm run bench -- --clusters 1000,10000,50000`. For each size, in one
// run, a generated Git fleet (scripts/generate-repo.ts) and, each next to the floor or
// yardstick it is compared with:
//   1. start → ready of a fresh service process (ulimit -n 1024), vs reading and parsing
//      the same files in a minimal script (scale/startup.ts);
//   2. RSS at ready, after a plain and a gzip pass over every endpoint (scale/memory-passes.ts);
//   3. one cluster file changed under the warm service: time to the new revision, the longest
//      /health stall, read p99 of other clusters, unaffected ETags (scale/reload.ts);
//   4. crud PATCH p50, against the smallest size, interleaved across sizes (scale/crud.ts);
//   5. validate and diff, vs the same floor (scale/cli-tools.ts);
//   6. reads vs a minimal node:http server with the same bytes, plain and gzip (scale/reads.ts).
// With --against <commit>, the same run is made first on that commit's service and tool
// (scale/against.ts), and the table puts each figure's old and new value side by side.
// Prints a Markdown table, writes docs/bench/scale-results.json (--out) and docs/bench/scale.svg
// (--svg). Timings are medians of --repeat runs; nothing is asserted: the machine is shared.
// Options: --repeat 3, --writes 100, --components 25, --reads all|smallest|none (all),
// --read-seconds 5, --read-rounds 3, --read-sample 1000, --connections 50, --concurrency 8, --keep.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, machineInfo, sourceState } from './bench/machine.ts';
import { PROJECT_ROOT, SERVICE_ROOT } from './bench/node-process.ts';
import { benchmarkCommit } from './bench/scale/against.ts';
import { measureCli } from './bench/scale/cli-tools.ts';
import { measureCrud, prepareCrudCopy } from './bench/scale/crud.ts';
import { measureHistoryWrites } from './bench/scale/history-writes.ts';
import { type Fleet, generateFleet, removeFleet } from './bench/scale/fleet.ts';
import { measureMemory } from './bench/scale/memory-passes.ts';
import { measureReads } from './bench/scale/reads.ts';
import { measureReload, type Restore, restoreFiles } from './bench/scale/reload.ts';
import {
  comparisonTable,
  type HistoryWritesFigure,
  type Report,
  type SizeResult,
  table,
  writeChart,
  writeJson,
} from './bench/scale/report.ts';
import { measureStartup } from './bench/scale/startup.ts';

const { values: args } = parseArgs({
  options: {
    clusters: { type: 'string', default: '1000,10000' },
    repeat: { type: 'string', default: '3' },
    writes: { type: 'string', default: '100' },
    components: { type: 'string', default: '25' },
    reads: { type: 'string', default: 'all' },
    'read-seconds': { type: 'string', default: '5' },
    'read-rounds': { type: 'string', default: '3' },
    'read-sample': { type: 'string', default: '1000' },
    connections: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '8' },
    out: { type: 'string', default: join(PROJECT_ROOT, 'docs', 'bench', 'scale-results.json') },
    svg: { type: 'string', default: join(PROJECT_ROOT, 'docs', 'bench', 'scale.svg') },
    keep: { type: 'boolean', default: false },
    'history-writes': { type: 'string', default: '10000' },
    'history-pairs': { type: 'string', default: '40' },
    against: { type: 'string' },
  },
});
const sizes = args.clusters.split(',').map((s) => Number(s.trim().replace(/_/g, '')));
const repeat = Number(args.repeat);
const writes = Number(args.writes);
const components = Number(args.components);
if (
  sizes.some((n) => !Number.isInteger(n) || n < 10) ||
  !(repeat >= 1) ||
  !['all', 'smallest', 'none'].includes(args.reads)
) {
  console.error(
    'usage: npm run bench -- --clusters 1000,10000,50000 [--repeat 3] [--writes 100] [--reads all|smallest|none] ' +
      '[--out file] [--svg file] [--keep]',
  );
  process.exit(2);
}
sizes.sort((a, b) => a - b);
const readOptions = {
  sample: Number(args['read-sample']),
  seconds: Number(args['read-seconds']),
  rounds: Number(args['read-rounds']),
  connections: Number(args.connections),
};

const began = performance.now();
const log = (line: string) => {
  const s = Math.round((performance.now() - began) / 1000);
  console.log(`[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}] ${line}`);
};

/** Runs one item; a failure is recorded against the size and the run goes on with the next item. */
async function item<T>(result: SizeResult, name: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    const message = String((error as Error)?.message ?? error)
      .split('\n')
      .slice(0, 3)
      .join(' / ');
    log(`  ${name} FAILED: ${message}`);
    result.errors.push({ item: name, message });
    return undefined;
  }
}

/** Items 1, 2, 3, 6 on one warm service, then 5 on the repo, and a crud copy for item 4 (run later, across sizes). */
async function measureSize(
  fleet: Fleet,
  result: SizeResult,
  crudCopies: { clusters: number; repo: string }[],
): Promise<void> {
  const started = await item(result, 'start → ready', () => measureStartup(fleet, repeat, log));
  const restore: Restore = [];
  if (started) {
    const { service } = started;
    result.startup = started.result;
    try {
      result.memory = await item(result, 'memory', () =>
        measureMemory(fleet, service, started.rssAtReady, started.result.floor.rssBytes, Number(args.concurrency), log),
      );
      result.reload = await item(result, 'one file changed', () => measureReload(fleet, service, repeat, restore, log));
      if (args.reads === 'all' || (args.reads === 'smallest' && fleet.clusters === sizes[0])) {
        result.reads = await item(result, 'reads', () => measureReads(fleet, service, readOptions, log));
      }
    } finally {
      await service.stop();
    }
  }
  restoreFiles(restore);
  result.cli = await item(result, 'validate / diff', () => measureCli(fleet, repeat, log));
  const copy = await item(result, 'crud copy', async () => prepareCrudCopy(fleet));
  if (copy) crudCopies.push({ clusters: fleet.clusters, repo: copy });
}

/** Back-to-back definition writes with and without the history, on the fleet of that size (generated if not run). */
async function measureHistoryFigure(clusters: number): Promise<HistoryWritesFigure | undefined> {
  let fleet = fleets.find((f) => f.clusters === clusters);
  if (!fleet) {
    log(`${clusters} clusters for the history's figure: generating`);
    fleet = await generateFleet(clusters, components);
    fleets.push(fleet);
  }
  log(`back-to-back definition writes at ${clusters} clusters, with and without the history, side by side`);
  const loadAtStart = loadavg()[0];
  const pairs = Number(args['history-pairs']);
  const { repo, root } = fleet;
  const holder: SizeResult = { clusters, components, repo: fleet, loadAverage: { atStart: loadAtStart }, errors: [] };
  const measured = await item(holder, 'history writes', () =>
    measureHistoryWrites(repo, root, clusters, pairs, Math.max(5, repeat), log),
  );
  return measured && { ...measured, loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0] } };
}

const atStart = machineInfo();
const before = args.against === undefined ? undefined : await benchmarkCommit(args.against, log);
const source = sourceState(SERVICE_ROOT);
log(`${describeMachine(atStart)}`);
if (source)
  log(
    `code: ${source.commit.slice(0, 12)}` +
      (source.changedSourceFiles ? ` with ${source.changedSourceFiles} changed files under src/` : ''),
  );
log(
  `fleet sizes ${sizes.join(', ')} x ${components} components; repeat ${repeat}; ${writes} crud writes per size; ` +
    `reads: ${args.reads}`,
);
const results: SizeResult[] = [];
const fleets: Fleet[] = [];
const crudCopies: { clusters: number; repo: string }[] = [];
let historyWrites: HistoryWritesFigure | undefined;
const report = (): Report => ({
  generatedAt: new Date().toISOString(),
  command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
  machine: { atStart, atEnd: machineInfo() },
  source,
  options: {
    sizes,
    components,
    repeat,
    writes,
    reads: args.reads,
    readOptions,
    concurrency: Number(args.concurrency),
    maxOpenFiles: 1024,
  },
  targets: {
    'crud.ratioToSmallest': 'p50 at every size ≤ 1.2 × p50 at 1,000',
    'historyWrites.ratio': 'back-to-back definition writes at 10,000 with the history ≤ 1.1 × without it',
    'cli.validateToFloor': '≤ 1.5',
    'cli.diffToValidate': '≤ 2',
  },
  notes: [
    'Timings are medians of the repetitions (options.repeat); every run is in the arrays beside them.',
    'Floors are fresh processes that only read and js-yaml-parse the same record files ' +
      '(scripts/bench/read-parse-floor.ts), run alternately with what they are compared with.',
    'Reload: the changed file is a cluster_name edit; the loops run from the write until 300 ms after the new ' +
      'revision is seen.',
    `Reads: platform-components of up to ${readOptions.sample} clusters spread over the fleet; ${readOptions.rounds} ` +
      `rounds of ${readOptions.seconds} s, ${readOptions.connections} connections, alternated; at ` +
      `${args.reads === 'all' ? 'every size' : args.reads === 'smallest' ? 'the smallest size only' : 'no size'}.`,
    'crud: one crud service per size (LOG_LEVEL=info), running at once; writes in alternating rounds across sizes ' +
      'after 10 warm-up writes each.',
  ],
  sizes: results,
  ...(historyWrites ? { historyWrites } : {}),
  ...(before ? { against: before } : {}),
});

try {
  for (const clusters of sizes) {
    log(`${clusters} clusters: generating`);
    const fleet = await generateFleet(clusters, components);
    fleets.push(fleet);
    log(
      `  ${fleet.files} files, ${(fleet.yamlBytes / 2 ** 20).toFixed(0)} MB of YAML, generated and packed in ` +
        `${(fleet.generateMs / 1000).toFixed(1)} s (${fleet.root})`,
    );
    const repo = { files: fleet.files, yamlBytes: fleet.yamlBytes, generateMs: fleet.generateMs };
    const result: SizeResult = { clusters, components, repo, loadAverage: { atStart: loadavg()[0] }, errors: [] };
    results.push(result);
    await measureSize(fleet, result, crudCopies);
    result.loadAverage.atEnd = loadavg()[0]!;
    writeJson(args.out, report()); // progress: a run cut short still leaves its figures
  }
  log(`crud writes, ${crudCopies.map((c) => c.clusters).join(', ')} clusters side by side`);
  const crud = await item(results[0], 'crud PATCH', () => measureCrud(crudCopies, writes, repeat, log));
  for (const c of crud ?? []) results.find((r) => r.clusters === c.clusters)!.crud = c;
  if (args['history-writes'] !== 'none') historyWrites = await measureHistoryFigure(Number(args['history-writes']));
} finally {
  if (args.keep) log(`kept ${fleets.map((f) => f.root).join(' ')}`);
  else fleets.forEach(removeFleet);
}

const final = report();
writeJson(args.out, final);
writeChart(args.svg, final);
console.log(
  `\n${describeMachine(final.machine.atStart)} (at start); load average at end ` +
    `${final.machine.atEnd.loadAverage.join(' ')}\n`,
);
console.log(before ? comparisonTable(before, final, repeat) : table(final, repeat));
console.log(`\nJSON: ${args.out}\nchart: ${args.svg}`);
