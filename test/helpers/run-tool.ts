// Runs the config-repo tool in this process, through the run() its bin calls
// (src/tools/cli.ts), with the arguments, directory and environment a child process would get
// (./tools.ts: runCli): the same exit status and the same bytes, without starting a Node
// process for every command. test/tools/run-in-process.test.ts holds the two ways to the same
// answers; the bin and the CI examples run as processes in their own tests.
import { run } from '../../src/tools/cli.ts';

export interface CliResult {
  status: number | null;
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
  /** stdout split into lines, without the final empty one. */
  lines: string[];
}

/** The environment without what npm and GitHub Actions set, so results do not depend on how tests are started. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('npm_') || key === 'INIT_CWD' || key.startsWith('GITHUB_')) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

export async function runTool(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const out: Buffer[] = [];
  let stderr = '';
  const status = await run(args, {
    stdout: (text) => void out.push(Buffer.from(text)),
    stderr: (text) => void (stderr += text),
    cwd: options.cwd ?? process.cwd(),
    env: cleanEnv(options.env),
    stdoutIsTerminal: false,
  });
  const stdoutBytes = Buffer.concat(out);
  const stdout = stdoutBytes.toString('utf8');
  return {
    status,
    stdout,
    stdoutBytes,
    stderr,
    lines: stdout.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === '')),
  };
}
