// Start-up time of the service on a generated Git fleet: `npm run bench:start`.
// A restart judges the branch's last 100 first-parent commits before it serves (the newest
// revision must not fall behind the one served before the restart). This measures what that
// costs: the same fleet started from a clone holding one commit and from one holding 101
// commits (each changing one cluster file), alternated run by run, each a fresh `node`
// process timed until it logs that it started. Reported: medians and their ratio.
// Environment: BENCH_CLUSTERS (10000), BENCH_COMPONENTS (25), BENCH_COMMITS (100), BENCH_RUNS (5).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from './bench/git.ts';
import { describeMachine } from './bench/machine.ts';
import { SERVICE_MAIN, startNodeProcess, untilReady } from './bench/node-process.ts';
import { procMemory } from './bench/proc-memory.ts';
import { median } from './bench/stats.ts';
import { generateConfigRepo } from './generate-repo.ts';

const clusters = Number(process.env.BENCH_CLUSTERS ?? 10_000);
const components = Number(process.env.BENCH_COMPONENTS ?? 25);
const commits = Number(process.env.BENCH_COMMITS ?? 100);
const runs = Number(process.env.BENCH_RUNS ?? 5);

interface Run {
  ms: number;
  /** Peak resident memory of the process, MB (from /proc once it was ready). */
  peakMb: number;
}

/** Starts the service on `repo` and stops it as soon as its /ready answers 200. */
async function startOnce(repo: string): Promise<Run> {
  const service = await startNodeProcess(SERVICE_MAIN, {
    env: { CONFIG_REPO: repo, AUTH_TOKEN: 'bench', LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'info' },
  });
  const ms = await untilReady(service);
  const peakMb = (procMemory(service.pid)?.hwm ?? 0) / 2 ** 20; // 0 when not on Linux
  await service.stop();
  return { ms, peakMb };
}

const root = mkdtempSync(join(tmpdir(), 'bench-start-'));
try {
  const source = join(root, 'source');
  generateConfigRepo(source, { clusters, componentsPerCluster: components, git: true });
  const single = join(root, 'one-commit');
  git(root, 'clone', '-q', `file://${source}`, single);
  for (let i = 0; i < commits; i++) {
    const file = join(source, 'clusters', `cluster-${String((i * 97) % clusters).padStart(5, '0')}.yaml`);
    writeFileSync(file, `${readFileSync(file, 'utf8')}# change ${i}\n`);
    git(source, 'commit', '-q', '-am', `change ${i}`);
  }
  git(source, 'gc', '-q');
  // Both checkouts serve the same number of clusters; only their history differs.
  const history = source;
  console.log(`${clusters} clusters x ${components} components; ${commits + 1} commits vs 1`);

  const without: Run[] = [];
  const withHistory: Run[] = [];
  for (let i = 0; i < runs; i++) {
    without.push(await startOnce(single));
    withHistory.push(await startOnce(history));
  }
  console.log(`\n${describeMachine()}, ${runs} runs each, alternated\n`);
  console.log('| checkout | start (median) | start (min–max) | peak RSS (median) |');
  console.log('|---|---:|---:|---:|');
  const row = (label: string, rs: Run[]) => {
    const ms = rs.map((r) => r.ms);
    const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
    console.log(
      `| ${label} | ${s(median(ms))} | ${s(Math.min(...ms))}–${s(Math.max(...ms))} | ` +
        `${median(rs.map((r) => r.peakMb)).toFixed(0)} MB |`,
    );
  };
  row('1 commit', without);
  row(`${commits + 1} commits`, withHistory);
  const ratio = median(withHistory.map((r) => r.ms)) / median(without.map((r) => r.ms));
  console.log(`\nstart with ${commits} commits of history to judge / start with none: ${ratio.toFixed(2)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
