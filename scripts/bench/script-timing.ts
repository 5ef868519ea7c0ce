// Times a Node script as a fresh process, the way CI or a pod runs it: wall time from spawn
// to exit, and the CPU time (user + system) the process used, which says what a run costs
// whatever else a shared machine is doing.
import { spawnSync } from 'node:child_process';

export interface Timing {
  label: string;
  /** Wall time of each run, ms. */
  runs: number[];
  /** CPU time (user + system) of each run, ms. */
  cpu: number[];
  exit: number;
  /** The last line the script printed on stdout (its summary, or a JSON report). */
  lastLine: string;
}

export interface TimingOptions {
  /** Exit codes that are results, not failures (validate exits 1 when it finds errors). */
  okExits?: number[];
  /** Run under `ulimit -n <n>`. */
  maxOpenFiles?: number;
}

export function timeScript(
  label: string,
  script: string,
  args: string[],
  runs: number,
  options: TimingOptions = {},
): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  let exit = 0;
  let lastLine = '';
  const ulimit = options.maxOpenFiles ? `ulimit -n ${options.maxOpenFiles}; ` : '';
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    // bash's `times` reports the CPU time of the finished child.
    const result = spawnSync(
      'bash',
      ['-c', `${ulimit}"$@"; status=$?; times >&2; exit $status`, 'bench', process.execPath, script, ...args],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      },
    );
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const times = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(result.stderr.trim());
    if (times) cpu.push((Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])) * 1000);
    exit = result.status ?? -1;
    lastLine = result.stdout.trim().split('\n').pop() ?? '';
    if (!(options.okExits ?? [0]).includes(exit)) throw new Error(`${label}: exit ${exit}\n${result.stderr}`);
  }
  return { label, runs: wall, cpu, exit, lastLine };
}
