// Rollout benchmark: `npm run bench -- --rollout [--clusters 50000] [--repeat 5]`. One
// generated Git fleet (scripts/generate-repo.ts), served read-only by two service processes
// side by side: one with a rollout of a catalog entry every cluster uses, over the whole
// fleet in ten steps, its first step released (bench/rollout-record.ts), and one without.
//   1. reads: the platform-components of 1,000 clusters spread over the fleet in rotation, both services loaded in turn
//      (autocannon), gzip and plain, rollout / no rollout req/s per round (bench/rollout-reads.ts);
//   2. GET /api/v2/gitops/rollouts/{id}: its time and the longest event-loop stall meanwhile
//      (bench/rollout-status.ts);
//   3. a commit releasing the next step (a tenth of the fleet) against a commit editing a
//      namespace record on the other side: time until served, RSS after (bench/rollout-release.ts).
// Prints a Markdown table and writes bench-results/rollout.json (--out). Nothing is asserted:
// the machine is shared. Options: --clusters 50000, --repeat 5 (read rounds, status requests
// and release commits; at most 9), --read-seconds 10, --read-sample 1000 (the clusters the read
// load rotates over, spread over the fleet), --connections 50, --out file, --keep.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, machineInfo, sourceState } from './bench/machine.ts';
import { PROJECT_ROOT } from './bench/node-process.ts';
import { procMemory } from './bench/proc-memory.ts';
import { prepareRolloutFleet, type RolloutFleet, SIDES, startServices } from './bench/rollout-fleet.ts';
import { measureRolloutReads } from './bench/rollout-reads.ts';
import { stepSize } from './bench/rollout-record.ts';
import { measureRelease } from './bench/rollout-release.ts';
import { measureRolloutStatus } from './bench/rollout-status.ts';
import { rolloutTable } from './bench/rollout-table.ts';

const { values: args } = parseArgs({
  options: {
    rollout: { type: 'boolean', default: true },
    clusters: { type: 'string', default: '50000' },
    repeat: { type: 'string', default: '5' },
    'read-seconds': { type: 'string', default: '10' },
    'read-sample': { type: 'string', default: '1000' },
    connections: { type: 'string', default: '50' },
    out: { type: 'string', default: join(PROJECT_ROOT, 'bench-results', 'rollout.json') },
    keep: { type: 'boolean', default: false },
  },
});
const clusters = Number(args.clusters.replace(/_/g, ''));
const repeat = Number(args.repeat);
// Up to 99,999: the generator's ids have five digits, so that their order is their numbers'.
if (!Number.isInteger(clusters) || clusters < 100 || clusters > 99_999 || !(repeat >= 1 && repeat <= 9)) {
  console.error(
    'usage: npm run bench -- --rollout [--clusters 50000 (100 to 99,999)] [--repeat 5 (1 to 9)] [--read-seconds 10] ' +
      '[--read-sample 1000] [--connections 50] [--out file] [--keep]',
  );
  process.exit(2);
}
const readOptions = {
  sample: Number(args['read-sample']),
  seconds: Number(args['read-seconds']),
  rounds: repeat,
  connections: Number(args.connections),
};

const began = performance.now();
const log = (line: string) => {
  const s = Math.round((performance.now() - began) / 1000);
  console.log(`[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}] ${line}`);
};
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

const atStart = machineInfo();
const source = sourceState(PROJECT_ROOT);
log(describeMachine(atStart));
log(`uptime: ${uptime()}`);
if (source) {
  const changed = source.changedSourceFiles ? ` with ${source.changedSourceFiles} changed files under src/` : '';
  log(`code: ${source.commit.slice(0, 12)}${changed}`);
}
log(`${clusters} clusters x 25 components; a rollout over all of them, ${stepSize(clusters)} a step; repeat ${repeat}`);

let fleet: RolloutFleet | undefined;
try {
  fleet = await prepareRolloutFleet(clusters);
  log(`generated, packed and cloned twice in ${(fleet.fleet.generateMs / 1000).toFixed(1)} s (${fleet.fleet.root})`);
  const services = await startServices(fleet);
  try {
    const rssAtReady = Object.fromEntries(SIDES.map((side) => [side, procMemory(services[side].pid)!.rss]));
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const { rollout, 'no rollout': none } = services;
    log(`listening: rollout after ${seconds(rollout.readyMs)}, no rollout after ${seconds(none.readyMs)}; both ready`);
    const { sample, rounds, connections } = readOptions;
    const shape = `${rounds} rounds of ${readOptions.seconds} s, ${connections} connections`;
    log(`1. reads of ${Math.min(sample, clusters)} clusters spread over the fleet, ${shape}`);
    const reads = await measureRolloutReads(services, clusters, readOptions, log);
    log(`2. GET the rollout's status, ${repeat} times (uptime: ${uptime()})`);
    const status = await measureRolloutStatus(services.rollout, fleet.probes.rollout, repeat, log);
    log(`3. release commits, ${repeat} each way (uptime: ${uptime()})`);
    const release = await measureRelease(fleet, services, repeat, log);
    const report = {
      generatedAt: new Date().toISOString(),
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
      machine: { atStart, atEnd: machineInfo(), uptimeAtEnd: uptime() },
      source,
      options: { clusters, components: 25, stepSize: stepSize(clusters), repeat, readOptions },
      targets: { readRatio: '>= 0.95', statusMs: '<= 100', statusStallMs: '<= 30', releaseRssRatio: '<= 1.05' },
      rssAtReady,
      reads,
      status,
      release,
    };
    mkdirSync(dirname(args.out), { recursive: true });
    writeFileSync(`${args.out}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
    renameSync(`${args.out}.tmp`, args.out);
    console.log(`\n${describeMachine(atStart)} (at start); ${report.machine.uptimeAtEnd} (at end)\n`);
    console.log(rolloutTable(report));
    console.log(`\nJSON: ${args.out}`);
    const errors = Object.values(reads.byEncoding).flatMap((c) => SIDES.map((side) => c.summary[side].errors));
    if (errors.some((n) => n > 0)) process.exitCode = 1;
  } finally {
    await Promise.all(SIDES.map((side) => services[side].stop()));
  }
} finally {
  if (fleet && args.keep) log(`kept ${fleet.fleet.root}`);
  else if (fleet) rmSync(fleet.fleet.root, { recursive: true, force: true });
}
