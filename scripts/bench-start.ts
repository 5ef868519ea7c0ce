// Start-up time of the service on a generated Git fleet: `npm run bench:start`.
// A restart judges the branch's last 100 first-parent commits before it serves (the newest
// revision must not fall behind the one served before the restart). This measures what that
// costs: the same fleet started from a clone holding one commit and from one holding 101
// commits (each changing one cluster file), alternated run by run, each a fresh `node`
// process timed until it logs that it started. Reported: medians and their ratio.
// Environment: BENCH_CLUSTERS (10000), BENCH_COMPONENTS (25), BENCH_COMMITS (100), BENCH_RUNS (5).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateConfigRepo } from './generate-repo.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const clusters = Number(process.env.BENCH_CLUSTERS ?? 10_000);
const components = Number(process.env.BENCH_COMPONENTS ?? 25);
const commits = Number(process.env.BENCH_COMMITS ?? 100);
const runs = Number(process.env.BENCH_RUNS ?? 5);

function git(dir: string, ...args: string[]): string {
  const config = ['user.name=bench', 'user.email=bench@example.com', 'gc.auto=0', 'maintenance.auto=false'].flatMap((c) => ['-c', c]);
  return execFileSync('git', [...config, ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

interface Run {
  ms: number;
  /** Peak resident memory of the process, MB (from /proc at exit). */
  peakMb: number;
}

/** Starts the service on `repo` and stops it as soon as it logs that it started. */
function startOnce(repo: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, CONFIG_REPO: repo, AUTH_TOKEN: 'bench', LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let ms = 0;
    let peakMb = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (ms === 0 && out.includes('gitops-config-api started')) {
        ms = Number(process.hrtime.bigint() - started) / 1e6;
        try {
          const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
          peakMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
        } catch {
          peakMb = 0; // not Linux
        }
        child.kill('SIGTERM');
      }
    });
    child.on('exit', (code) => (ms > 0 ? resolve({ ms, peakMb }) : reject(new Error(`the service exited (${code}) before it started:\n${out}`))));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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
  const model = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`\nnode ${process.version}, ${availableParallelism()} cores (${model}), load average ${loadavg()[0]!.toFixed(2)}, ${runs} runs each, alternated\n`);
  console.log('| checkout | start (median) | start (min–max) | peak RSS (median) |');
  console.log('|---|---:|---:|---:|');
  const row = (label: string, rs: Run[]) => {
    const ms = rs.map((r) => r.ms);
    const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
    console.log(`| ${label} | ${s(median(ms))} | ${s(Math.min(...ms))}–${s(Math.max(...ms))} | ${median(rs.map((r) => r.peakMb)).toFixed(0)} MB |`);
  };
  row('1 commit', without);
  row(`${commits + 1} commits`, withHistory);
  const ratio = median(withHistory.map((r) => r.ms)) / median(without.map((r) => r.ms));
  console.log(`\nstart with ${commits} commits of history to judge / start with none: ${ratio.toFixed(2)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
