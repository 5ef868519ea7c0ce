// What a benchmark result depends on besides the code: printed with every result, because
// the development machine is small and shared and its load changes from minute to minute.
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

export interface MachineInfo {
  node: string;
  cores: number;
  cpu: string;
  memoryGb: number;
  /** 1, 5 and 15 minute load averages when the figure was taken. */
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  return {
    node: process.version,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

export function describeMachine(m: MachineInfo = machineInfo()): string {
  return `node ${m.node}, ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, load average ${m.loadAverage.join(' ')}`;
}

export interface SourceState {
  commit: string;
  /** Files under src/ that differ from that commit: the figures are of the code as it was on disk. */
  changedSourceFiles: number;
}

/** The code measured. Read-only: --no-optional-locks keeps git from refreshing the index. */
export function sourceState(root: string): SourceState | undefined {
  try {
    const run = (...args: string[]) =>
      execFileSync('git', ['--no-optional-locks', ...args], { cwd: root, encoding: 'utf8' }).trim();
    const changed = run('status', '--porcelain', '--', 'src');
    return { commit: run('rev-parse', 'HEAD'), changedSourceFiles: changed === '' ? 0 : changed.split('\n').length };
  } catch {
    return undefined; // not a Git checkout
  }
}
