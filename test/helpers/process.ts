// The service as its own process (`node src/main.ts`), as it runs in production: for what
// only a real process shows (signals, exit codes, a wedged event loop).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const MAIN = join(ROOT, 'src', 'main.ts');

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

/** `openFiles`: run under `ulimit -n` of that many (the limit is per process). */
export async function startServiceProcess(env: Record<string, string>, options: { openFiles?: number } = {}): Promise<ServiceProcess> {
  const [command, args] =
    options.openFiles === undefined
      ? [process.execPath, [MAIN]]
      : ['bash', ['-c', `ulimit -n ${options.openFiles} && exec '${process.execPath}' '${MAIN}'`]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, AUTH_TOKEN: 'process-token', LISTEN_ADDR: '127.0.0.1:0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += String(c)));
  child.stderr!.on('data', (c) => (err += String(c)));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line within 15 s: ${out}${err}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${out}${err}`)));
    child.stdout!.on('data', () => {
      const match = /"listen":"([^"]+)".*"msg":"gitops-config-api started"/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve(`http://${match[1]}`);
    });
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
          child.stdout!.off('data', check);
          resolve();
        };
        const timer = setTimeout(() => {
          child.stdout!.off('data', check);
          reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms: ${out}${err}`));
        }, timeoutMs);
        child.stdout!.on('data', check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      const started = Date.now();
      child.kill(signal);
      const { code, at } = await exited;
      return { code, ms: at - started };
    },
  };
}
