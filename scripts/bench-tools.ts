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
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, pack } from './bench/git.ts';
import { describeMachine } from './bench/machine.ts';
import { type Timing, timeScript } from './bench/script-timing.ts';
import { median } from './bench/stats.ts';
import { generateConfigRepo } from './generate-repo.ts';

const CLI = fileURLToPath(new URL('../src/tools/cli.ts', import.meta.url));
const clusters = Number(process.env.BENCH_CLUSTERS ?? 10_000);
const components = Number(process.env.BENCH_COMPONENTS ?? 25);
const runs = Number(process.env.BENCH_RUNS ?? 3);

/** validate exits 1 when it finds errors, diff when the change has any: results, not failures. */
const time = (label: string, args: string[]): Timing => timeScript(label, CLI, args, runs, { okExits: [0, 1] });

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

  console.log(`\n${describeMachine()}, ${runs} runs each`);
  console.log('wall: elapsed time of a fresh process; CPU: its user + system time\n');
  console.log('| command | wall (median) | wall (min–max) | CPU (median) |');
  console.log('|---|---:|---:|---:|');
  for (const r of results) {
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const cpuText = r.cpu.length ? s(median(r.cpu)) : 'n/a';
    console.log(
      `| ${r.label} | ${s(median(r.runs))} | ${s(Math.min(...r.runs))}–${s(Math.max(...r.runs))} | ${cpuText} |`,
    );
  }
  console.log('');
  for (const r of results) console.log(`${r.label}: ${r.lastLine.slice(0, 160)}`);
} finally {
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
