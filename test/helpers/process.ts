// The service as its own process (`node src/main.ts`), as it runs in production: for what
// only a real process shows (signals, exit codes, a wedged event loop).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const MAIN = join(ROOT, 'src', 'main.ts');

/**
 * The environment a started service process gets besides what a test sets: PATH, HOME, and
 * the compile cache that vitest.config.ts names (Node keeps src/'s type-stripped and compiled
 * modules there, so that the suite's many starts of the service do not each redo that work).
 */
export function baseEnv(): Record<string, string> {
  const { PATH = '', HOME = '', NODE_COMPILE_CACHE } = process.env;
  return { PATH, HOME, ...(NODE_COMPILE_CACHE === undefined ? {} : { NODE_COMPILE_CACHE }) };
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything written to stdout so far. */
  output(): string;
  /** Everything written to stderr so far. */
  errors(): string;
  /** Resolves once stdout holds a match of `pattern`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the process has exited: its exit code, and Date.now() at that moment. */
  exited: Promise<{ code: number | null; at: number }>;
  /** Sends a signal; resolves with the exit code and how long the process took to exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/**
 * Starts `node src/main.ts`. `openFiles`: run under `ulimit -n` of that many (the limit is per
 * process). `wrapper` (a command and its arguments, such as strace): started by it, in a
 * process group of their own that stop() signals as a whole.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  options: { openFiles?: number; wrapper?: string[]; startTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const wrapper = options.wrapper ?? [];
  const [command, ...args] =
    options.openFiles === undefined
      ? [...wrapper, process.execPath, MAIN]
      : [...wrapper, 'bash', '-c', `ulimit -n ${options.openFiles} && exec '${process.execPath}' '${MAIN}'`];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...baseEnv(),
      AUTH_TOKEN: 'process-token',
      LISTEN_ADDR: '127.0.0.1:0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: wrapper.length > 0,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const url = await startLine(child, () => out + err, options.startTimeoutMs).catch((error: unknown) => {
    // One that did not start in time is stopped, not left running for the rest of the suite.
    try {
      if (wrapper.length > 0) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Gone already.
    }
    throw error;
  });
  return {
    child,
    url,
    output: () => out,
    errors: () => err,
    exited,
    waitForOutput(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(out)) return;
          clearTimeout(timer);
          child.stdout.off('data', check);
          resolve();
        };
        const timer = setTimeout(() => {
          child.stdout.off('data', check);
          reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms: ${out}${err}`));
        }, timeoutMs);
        child.stdout.on('data', check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      if (wrapper.length > 0) process.kill(-child.pid!, signal);
      else child.kill(signal);
      const { code, at } = await exited;
      return { code, ms: at - started };
    },
  };
}

/** Resolves with the service's URL once its start line is out; rejects when it exits first. */
function startLine(child: ChildProcess, text: () => string, timeoutMs = 15_000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start line within ${timeoutMs / 1000} s: ${text()}`)),
      timeoutMs,
    );
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${text()}`)));
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /"listen":"([^"]+)".*"msg":"gitops-config-api started"/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve(`http://${match[1]}`);
    });
  });
}

export interface ServiceGroup {
  url: string;
  /** The service's process id, which is also its process group's. */
  pid: number;
  output(): string;
  /** SIGKILL to the whole process group; resolves at once, without waiting for anything. */
  killGroup(): void;
  /** Ends the parent that kept the service unreaped (the dead service is then reaped by init). */
  endParent(): Promise<void>;
}

/**
 * The service as the leader of a process group of its own, started by a parent that never
 * reaps it (a shell that execs `sleep`): once the group is killed, the service stays dead but
 * unreaped — a zombie whose process id still answers kill(pid, 0) — until the parent ends.
 * That is what a restart faster than the reaping, or a container init that does not reap,
 * leaves behind.
 */
export async function startServiceGroup(env: Record<string, string>): Promise<ServiceGroup> {
  const child = spawn(
    'sh',
    ['-c', 'setsid "$0" "$1" </dev/null & echo "service-pid=$!"; exec sleep 3600', process.execPath, MAIN],
    {
      cwd: ROOT,
      env: {
        ...baseEnv(),
        AUTH_TOKEN: 'process-token',
        LISTEN_ADDR: '127.0.0.1:0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await startLine(child, () => out + err);
  const pid = Number(/service-pid=(\d+)/.exec(out)?.[1]);
  if (!pid) throw new Error(`the service's process id was not printed: ${out}`);
  return {
    url,
    pid,
    output: () => out,
    killGroup: () => process.kill(-pid, 'SIGKILL'),
    async endParent() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
