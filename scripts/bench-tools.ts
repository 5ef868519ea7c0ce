// Speed of the config-repo tool on a generated fleet: `npm run bench:tools`.
// Generates a Git config repo (10,000 clusters x 25 components by default), then times the
// real command line (a fresh `node` process each run, as CI runs it):
//   validate <repo>                  the whole working tree
//   diff <repo> HEAD~1 HEAD          a catalog bump that reaches almost every cluster
//   diff <repo> HEAD~1               the same, head = the working tree
//   diff <repo> HEAD~1 HEAD          (mass edit) every cluster file changed, so every base
//                                    file is read from the object store
// Environment: BENCH_CLUSTERS (10000), BENCH_COMPONENTS (25), BENCH_RUNS (3), BENCH_KEEP=1
// keeps the generated repo.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateConfigRepo } from './generate-repo.ts';

const CLI = fileURLToPath(new URL('../src/tools/cli.ts', import.meta.url));
const clusters = Number(process.env.BENCH_CLUSTERS ?? 10_000);
const components = Number(process.env.BENCH_COMPONENTS ?? 25);
const runs = Number(process.env.BENCH_RUNS ?? 3);

function git(dir: string, ...args: string[]): string {
  const config = ['user.name=bench', 'user.email=bench@example.com', 'gc.auto=0', 'maintenance.auto=false'].flatMap((c) => ['-c', c]);
  return execFileSync('git', [...config, ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

/** Packs the repository as a fresh clone is, after any automatic gc the generator's commit started. */
async function pack(dir: string): Promise<void> {
  for (let waited = 0; ; waited += 500) {
    try {
      git(dir, 'gc', '-q', '--prune=now');
      return;
    } catch (error) {
      // The commit may have started an automatic gc in the background: wait for it.
      if (!String((error as { stderr?: unknown }).stderr).includes('already running') || waited > 180_000) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

interface Timing {
  label: string;
  command: string;
  /** Wall time of each run, ms. */
  runs: number[];
  /** CPU time (user + system) of each run, ms: what the run costs, whatever else the machine does. */
  cpu: number[];
  exit: number;
  lastLine: string;
}

function time(label: string, args: string[]): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  let exit = 0;
  let lastLine = '';
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    // bash's `times` reports the CPU time of the finished child.
    const result = spawnSync('bash', ['-c', '"$@"; status=$?; times >&2; exit $status', 'bench', process.execPath, CLI, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const times = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(result.stderr.trim());
    if (times) cpu.push((Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])) * 1000);
    exit = result.status ?? -1;
    lastLine = result.stdout.trim().split('\n').pop() ?? '';
    if (exit !== 0 && exit !== 1) throw new Error(`${label}: exit ${exit}\n${result.stderr}`);
  }
  return { label, command: `gitops-config ${args.join(' ')}`, runs: wall, cpu, exit, lastLine };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'bench-tools-'));
try {
  const started = Date.now();
  generateConfigRepo(dir, { clusters, componentsPerCluster: components, git: true });
  await pack(dir);
  console.log(`generated ${clusters} clusters x ${components} components in ${dir} (${Date.now() - started} ms)`);
  const results: Timing[] = [];

  results.push(time('validate', ['validate', dir]));

  // A catalog bump that reaches (almost) every cluster.
  const catalogFile = join(dir, 'platform_components/component-0.yaml');
  writeFileSync(catalogFile, readFileSync(catalogFile, 'utf8').replace(/^oci_tag: .*$/m, 'oci_tag: 9.9.9'));
  git(dir, 'commit', '-q', '-am', 'bump component-0');
  await pack(dir);
  results.push(time('diff, two commits (catalog bump)', ['diff', dir, 'HEAD~1', 'HEAD']));
  results.push(time('diff, commit vs working tree', ['diff', dir, 'HEAD~1']));
  results.push(time('diff --format markdown', ['diff', dir, 'HEAD~1', 'HEAD', '--format', 'markdown']));

  // A mass edit: every cluster file changes, so no base file can be taken from the checkout.
  for (const name of readdirSync(join(dir, 'clusters'))) {
    const file = join(dir, 'clusters', name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/replicaCount: '(\d)'/, "replicaCount: '9'"));
  }
  git(dir, 'commit', '-q', '-am', 'mass edit');
  await pack(dir);
  results.push(time('diff, two commits (every cluster file edited)', ['diff', dir, 'HEAD~1', 'HEAD']));

  const model = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`\nnode ${process.version}, ${availableParallelism()} cores (${model}), load average ${loadavg()[0]!.toFixed(2)}, ${runs} runs each`);
  console.log('wall: elapsed time of a fresh process; CPU: its user + system time\n');
  console.log('| command | wall (median) | wall (min–max) | CPU (median) |');
  console.log('|---|---:|---:|---:|');
  for (const r of results) {
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const cpuText = r.cpu.length ? s(median(r.cpu)) : 'n/a';
    console.log(`| ${r.label} | ${s(median(r.runs))} | ${s(Math.min(...r.runs))}–${s(Math.max(...r.runs))} | ${cpuText} |`);
  }
  console.log('');
  for (const r of results) console.log(`${r.label}: ${r.lastLine.slice(0, 160)}`);
} finally {
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
