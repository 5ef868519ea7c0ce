// Runs the config-repo tool (src/tools/cli.ts) as a child process, as CI runs it.
import { fileURLToPath } from 'node:url';
import { runCommand } from './process-starter.ts';
import { type CliResult, cleanEnv } from './run-tool.ts';

export const CLI = fileURLToPath(new URL('../../src/tools/cli.ts', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/gitops-config.js', import.meta.url));

export { type CliResult, cleanEnv } from './run-tool.ts';

export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; script?: string } = {},
): CliResult {
  const result = runCommand(process.execPath, [options.script ?? CLI, ...args], {
    cwd: options.cwd,
    env: cleanEnv(options.env),
  });
  const stdout = result.stdout.toString('utf8');
  return {
    status: result.status,
    stdout,
    stdoutBytes: result.stdout,
    stderr: result.stderr.toString('utf8'),
    lines: stdout.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === '')),
  };
}
