// Item 5 of the scale benchmark: the config-repo tool at this fleet size, each run a fresh
// process as CI runs it: `validate <repo>`, and `diff <repo> HEAD~1 HEAD` after a catalog
// bump that reaches (almost) every cluster. Both against the floor (a fresh process that
// only reads and YAML-parses the same files), run alternately with them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, pack } from '../git.ts';
import { SERVICE_ROOT } from '../node-process.ts';
import { timeScript } from '../script-timing.ts';
import { type Spread, spread } from '../stats.ts';
import type { Fleet } from './fleet.ts';
import { emptyFloor, type FloorSummary, runFloor, summarizeFloor } from './startup.ts';

const CLI = join(SERVICE_ROOT, 'src', 'tools', 'cli.ts');

export interface ToolRun {
  wallMs: Spread;
  cpuMs: Spread | null;
  exit: number;
  lastLine: string;
}

export interface CliResult {
  validate: ToolRun;
  diff: ToolRun;
  floor: FloorSummary;
  /** validate / floor wall time of the medians; target ≤ 1.5. */
  validateToFloor: number;
  /** diff / validate wall time of the medians; target ≤ 2. */
  diffToValidate: number;
}

/** Commits a catalog bump (component-0's oci_tag) on top of the generated commit, packed as a clone is. */
async function commitCatalogBump(repo: string): Promise<void> {
  const file = join(repo, 'platform_components', 'component-0.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^oci_tag: .*$/m, 'oci_tag: 9.9.9'));
  git(repo, 'commit', '-q', '-am', 'bump component-0');
  await pack(repo);
}

export async function measureCli(fleet: Fleet, repeat: number, log: (line: string) => void): Promise<CliResult> {
  await commitCatalogBump(fleet.repo);
  const floor = emptyFloor();
  const validate = { wall: [] as number[], cpu: [] as number[], exit: 0, lastLine: '' };
  const diff = { wall: [] as number[], cpu: [] as number[], exit: 0, lastLine: '' };
  const run = (into: typeof validate, label: string, args: string[]) => {
    // validate exits 1 when it finds errors and diff when the change has any: results, not failures.
    const t = timeScript(label, CLI, args, 1, { okExits: [0, 1] });
    into.wall.push(t.runs[0]);
    into.cpu.push(...t.cpu);
    into.exit = t.exit;
    into.lastLine = t.lastLine.slice(0, 200);
  };
  for (let i = 0; i < repeat; i++) {
    runFloor(fleet.repo, floor);
    run(validate, 'validate', ['validate', fleet.repo]);
    run(diff, 'diff', ['diff', fleet.repo, 'HEAD~1', 'HEAD']);
    const s = (ms: number[]) => `${(ms.at(-1)! / 1000).toFixed(2)} s`;
    log(`  run ${i + 1}/${repeat}: floor ${s(floor.wallMs)}, validate ${s(validate.wall)}, diff ${s(diff.wall)}`);
  }
  const summary = (r: typeof validate): ToolRun => ({
    wallMs: spread(r.wall),
    cpuMs: r.cpu.length ? spread(r.cpu) : null,
    exit: r.exit,
    lastLine: r.lastLine,
  });
  const floorSummary = summarizeFloor(floor);
  const v = summary(validate);
  const d = summary(diff);
  return {
    validate: v,
    diff: d,
    floor: floorSummary,
    validateToFloor: v.wallMs.median / floorSummary.wallMs.median,
    diffToValidate: d.wallMs.median / v.wallMs.median,
  };
}
