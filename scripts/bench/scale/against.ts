// `--against <commit>`: the same benchmark run first on an older commit's service and tool, in
// the same sitting, by these same scripts (BENCH_SERVICE_ROOT points them at a detached worktree
// of that commit, sharing this checkout's node_modules), so that old and new can be put side by
// side in one table (report.ts, comparisonTable).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../node-process.ts';
import type { Report } from './report.ts';

/** The arguments without `--against <commit>` (or `--against=<commit>`), `--out` and `--svg`. */
function ownArguments(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (['--against', '--out', '--svg'].includes(arg)) i++;
    else if (!/^--(against|out|svg)=/.test(arg)) out.push(arg);
  }
  return out;
}

/** Runs the benchmark on `commit` (anything `git worktree add` takes) and returns its report. */
export async function benchmarkCommit(commit: string, log: (line: string) => void): Promise<Report> {
  const root = mkdtempSync(join(tmpdir(), 'bench-against-'));
  const checkout = join(root, 'checkout');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
  git('worktree', 'add', '--detach', '--quiet', checkout, commit);
  try {
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(checkout, 'node_modules'));
    const out = join(root, 'report.json');
    const args = [join(PROJECT_ROOT, 'scripts', 'bench.ts'), ...ownArguments(process.argv.slice(2))];
    log(`the commit to compare with, ${git('rev-parse', '--short=12', commit)}: measured first (${checkout})`);
    const child = spawn(process.execPath, [...args, '--out', out, '--svg', join(root, 'chart.svg')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, BENCH_SERVICE_ROOT: checkout },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the benchmark of ${commit} exited with ${code}`);
    return JSON.parse(readFileSync(out, 'utf8')) as Report;
  } finally {
    git('worktree', 'remove', '--force', checkout);
    rmSync(root, { recursive: true, force: true });
  }
}
