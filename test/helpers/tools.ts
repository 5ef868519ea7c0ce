// Runs the config-repo tool (src/tools/cli.ts) as a child process, as CI runs it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/tools/cli.ts', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/gitops-config.js', import.meta.url));

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

export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string>; script?: string } = {}): CliResult {
  const result = spawnSync(process.execPath, [options.script ?? CLI, ...args], {
    cwd: options.cwd,
    env: cleanEnv(options.env),
    maxBuffer: 256 * 1024 * 1024,
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
