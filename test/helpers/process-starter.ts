// Runs short commands (git, sh, openssl, the tool) for a test worker from a small process of
// its own, the starter.
//
// A test worker holds hundreds of megabytes, and Node starts a child with fork(): the kernel
// copies the worker's page tables and marks its pages copy-on-write, so each page the worker
// writes afterwards (the collector writes many) faults once. On the project's 2-core virtual
// machines that costs more than the command: a Node process with a heap of some 100 MB spent
// about 45 ms more CPU for each `true` it started between two stretches of allocation than
// the two apart (docs/development.md, "Tests"). The starter's heap is a few
// megabytes, so its forks are cheap. Requests and answers pass through two named pipes with
// blocking reads and writes: `runCommand` blocks as spawnSync does, and answers the same.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CommandOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the command's stdin. */
  input?: string;
  /** Milliseconds before the command is sent SIGTERM, as spawnSync's `timeout`. */
  timeout?: number;
}

export interface CommandResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  /** Why the command could not start or was stopped (ENOENT, ETIMEDOUT), as spawnSync's `error`. */
  error?: string;
}

interface Channel {
  requests: number;
  answers: number;
}

// The starter's whole program: one request (a JSON line) at a time, answered by a JSON line.
const STARTER = `
const { spawnSync } = require('node:child_process');
const { openSync, readSync, writeSync } = require('node:fs');
const [requestsPath, answersPath] = process.argv.slice(1);
const requests = openSync(requestsPath, 'r');
const answers = openSync(answersPath, 'w');
const chunk = Buffer.alloc(1 << 20);
let parts = [];
for (let read; (read = readSync(requests, chunk, 0, chunk.length, null)) > 0; ) {
  // A request ends with its line: nothing is sent before its answer is read.
  parts.push(Buffer.from(chunk.subarray(0, read)));
  if (chunk[read - 1] === 0x0a) {
    const { file, args, cwd, env, input, timeout } = JSON.parse(Buffer.concat(parts).toString('utf8'));
    parts = [];
    const result = spawnSync(file, args, { cwd, env, input, timeout, maxBuffer: 1 << 30 });
    const answer = {
      status: result.status,
      signal: result.signal,
      stdout: result.stdout ? result.stdout.toString('base64') : '',
      stderr: result.stderr ? result.stderr.toString('base64') : '',
      error: result.error ? result.error.message : undefined,
    };
    writeSync(answers, JSON.stringify(answer) + '\\n');
  }
}
`;

// One starter per process: files of a worker that re-import this module (the e2e tier
// isolates them) find it here.
const SHARED = Symbol.for('gitops-config-api.test.process-starter');
const shared = globalThis as { [SHARED]?: Channel };

function openChannel(): Channel {
  const dir = mkdtempSync(join(tmpdir(), 'process-starter-'));
  const requestsPath = join(dir, 'requests');
  const answersPath = join(dir, 'answers');
  execFileSync('mkfifo', [requestsPath, answersPath]);
  spawn(process.execPath, ['-e', STARTER, requestsPath, answersPath], { stdio: 'inherit' }).unref();
  // Opening a named pipe waits for its other end: both sides open `requests`, then `answers`.
  const channel = { requests: openSync(requestsPath, 'w'), answers: openSync(answersPath, 'r') };
  rmSync(dir, { recursive: true, force: true });
  return channel;
}

function readLine(fd: number): string {
  const chunk = Buffer.alloc(1 << 16);
  const parts: Buffer[] = [];
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) throw new Error('the process starter ended');
    parts.push(Buffer.from(chunk.subarray(0, read)));
    if (chunk[read - 1] === 0x0a) return Buffer.concat(parts).toString('utf8');
  }
}

/** Runs `file` with `args` to its end, as spawnSync does: the outcome is the caller's to judge. */
export function runCommand(file: string, args: string[], options: CommandOptions = {}): CommandResult {
  const channel = (shared[SHARED] ??= openChannel());
  const { cwd, input, timeout } = options;
  const request = { file, args, cwd, env: options.env ?? process.env, input, timeout };
  let answer: { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; error?: string };
  try {
    writeSync(channel.requests, `${JSON.stringify(request)}\n`);
    answer = JSON.parse(readLine(channel.answers)) as typeof answer;
  } catch (error) {
    // A starter that is gone is replaced at the next command.
    closeSync(channel.requests);
    closeSync(channel.answers);
    delete shared[SHARED];
    throw error;
  }
  return {
    status: answer.status,
    signal: answer.signal,
    stdout: Buffer.from(answer.stdout, 'base64'),
    stderr: Buffer.from(answer.stderr, 'base64'),
    ...(answer.error === undefined ? {} : { error: answer.error }),
  };
}

/** An error as execFileSync throws it for a command that failed: message, status, stdout, stderr. */
export class CommandError extends Error {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;

  constructor(command: string[], status: number | null, stdout: string, stderr: string) {
    super(`Command failed: ${command.join(' ')}\n${stderr}`);
    this.status = status;
    this.stdout = stdout;
    this.stderr = stderr;
  }
}

/** Like execFileSync with `encoding: 'utf8'`: the command's stdout, or an error (a CommandError when it ran). */
export function runCommandText(file: string, args: string[], options: CommandOptions = {}): string {
  const result = runCommand(file, args, options);
  if (result.error !== undefined) throw new Error(`${[file, ...args].join(' ')}: ${result.error}`);
  const stdout = result.stdout.toString('utf8');
  if (result.status !== 0)
    throw new CommandError([file, ...args], result.status, stdout, result.stderr.toString('utf8'));
  return stdout;
}
