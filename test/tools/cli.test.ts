// The command line itself, called in-process through run(): --help and --version on stdout with
// exit 0, usage errors as one line and a hint on stderr with exit 2, and colours only for a
// terminal (NO_COLOR, FORCE_COLOR).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, run } from '../../src/tools/cli.ts';
import { CLI, cleanEnv } from '../helpers/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'config-repo-example');
/** An error (a dangling reference, without --base) and a warning (an unused catalog entry). */
const WITH_PROBLEMS = join(ROOT, 'test', 'golden', 'problems', 'repo');
const ESC = '\u001b[';

async function cli(
  argv: string[],
  io: Partial<CliIo> = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await run(argv, {
    stdout: (text) => void (stdout += text.toString()),
    stderr: (text) => void (stderr += text),
    cwd: ROOT,
    env: {},
    ...io,
  });
  return { status, stdout, stderr };
}

describe('--help and --version', () => {
  it('prints the commands and the exit status to stdout, exit 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const result = await cli(argv);
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Usage: gitops-config \[options\] \[command\]\n/);
      for (const line of [
        '  validate [repo-dir]',
        '  inputs <repo-dir> <cluster_dns> [endpoint]',
        '  diff <repo-dir> <base-rev> [head-rev]',
        'Exit status:',
      ]) {
        expect(result.stdout).toContain(line);
      }
    }
  });

  it('prints each command help with its options and exit status, exit 0', async () => {
    const expected = {
      validate: ['--base <rev>', '--format <format>', '"github"', '--strict', '  1  errors'],
      inputs: ['<cluster_dns>', '"rolebindings"', '--pretty', '(404)'],
      diff: ['<base-rev>', '[head-rev]', '"markdown"', 'REFUSED'],
    };
    for (const [command, parts] of Object.entries(expected)) {
      for (const argv of [
        [command, '--help'],
        ['help', command],
      ]) {
        const result = await cli(argv);
        expect(result.status).toBe(0);
        expect(result.stderr).toBe('');
        expect(result.stdout.split('\n')[0]).toContain(`Usage: gitops-config ${command} [options]`);
        for (const part of [...parts, 'Exit status:', '  2  usage:']) expect(result.stdout).toContain(part);
      }
    }
  });

  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V'])
      expect(await cli([flag])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('usage errors', () => {
  const cases: [string[], string, string][] = [
    [[], 'no command given', 'gitops-config'],
    [['frobnicate'], "unknown command 'frobnicate'", 'gitops-config'],
    [['--colour'], "unknown option '--colour'", 'gitops-config'],
    [['validate', EXAMPLE, '--colour'], "unknown option '--colour'", 'gitops-config validate'],
    [
      ['validate', EXAMPLE, '--format', 'xml'],
      "option '--format <format>' argument 'xml' is invalid. Allowed choices are text, json, github.",
      'gitops-config validate',
    ],
    [
      ['validate', EXAMPLE, EXAMPLE],
      "too many arguments for 'validate'. Expected 1 argument but got 2.",
      'gitops-config validate',
    ],
    [['validate', '/nonexistent/dir'], '/nonexistent/dir is not a directory', 'gitops-config validate'],
    [['inputs', EXAMPLE], "missing required argument 'cluster_dns'", 'gitops-config inputs'],
    [
      ['inputs', EXAMPLE, 'prod-eu-1.k8s.example.com', 'secrets'],
      "command-argument value 'secrets' is invalid for argument 'endpoint'",
      'gitops-config inputs',
    ],
    [['diff', EXAMPLE], "missing required argument 'base-rev'", 'gitops-config diff'],
    [
      ['diff', EXAMPLE, 'HEAD', '--format', 'html'],
      "argument 'html' is invalid. Allowed choices are text, markdown, json.",
      'gitops-config diff',
    ],
  ];

  it.each(cases)('%j: exit 2, one line naming the mistake and where the usage is', async (argv, message, helpOf) => {
    const result = await cli(argv);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines).toHaveLength(3); // two lines and the final newline
    expect(lines[0]).toMatch(/^gitops-config: /);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toBe(
      helpOf === 'gitops-config'
        ? 'Run gitops-config --help for the commands and their options.'
        : `Run ${helpOf} --help for its usage.`,
    );
  });

  it('MAX_RECORD_BYTES that is not a size is a usage error too', async () => {
    const result = await cli(['validate', EXAMPLE], { env: { MAX_RECORD_BYTES: 'lots' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'gitops-config: MAX_RECORD_BYTES=lots is not a size; use e.g. 1mb, 512kb or plain bytes\nRun gitops-config ' +
        'validate --help for its usage.\n',
    );
  });
});

describe('colours', () => {
  it('colours the text report for a terminal only', async () => {
    const plain = await cli(['validate', WITH_PROBLEMS]);
    expect(plain.stdout).not.toContain(ESC);
    const terminal = await cli(['validate', WITH_PROBLEMS], { stdoutIsTerminal: true });
    expect(terminal.stdout).toContain(`${ESC}33mwarning${ESC}39m`);
    // eslint-disable-next-line no-control-regex -- the terminal's escape sequences are what is taken out
    expect(terminal.stdout.replaceAll(/\u001b\[\d+m/g, '')).toBe(plain.stdout);
  });

  it('honours NO_COLOR and FORCE_COLOR', async () => {
    expect(
      (await cli(['validate', WITH_PROBLEMS], { stdoutIsTerminal: true, env: { NO_COLOR: '1' } })).stdout,
    ).not.toContain(ESC);
    expect(
      (await cli(['validate', WITH_PROBLEMS], { stdoutIsTerminal: true, env: { NO_COLOR: '1', FORCE_COLOR: '1' } }))
        .stdout,
    ).not.toContain(ESC);
    expect(
      (await cli(['validate', WITH_PROBLEMS], { stdoutIsTerminal: true, env: { FORCE_COLOR: '0' } })).stdout,
    ).not.toContain(ESC);
    expect((await cli(['validate', WITH_PROBLEMS], { env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
  });

  it('never colours what programs read: JSON, GitHub workflow commands, Markdown', async () => {
    const forced = { stdoutIsTerminal: true, env: { FORCE_COLOR: '1' } };
    expect((await cli(['validate', WITH_PROBLEMS, '--format', 'json'], forced)).stdout).not.toContain(ESC);
    expect((await cli(['validate', WITH_PROBLEMS, '--format', 'github'], forced)).stdout).not.toContain(ESC);
    expect((await cli(['diff', EXAMPLE, 'HEAD', '--format', 'markdown'], forced)).stdout).not.toContain(ESC);
  });
});

describe('a reader that goes away', () => {
  it('ends quietly with the exit status when stdout is closed early (| head)', async () => {
    const child = spawn(process.execPath, [CLI, 'diff', EXAMPLE, 'HEAD', '--format', 'json'], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });
});
