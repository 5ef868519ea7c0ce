// Starts a Node script as its own process and waits until it says it listens: the service
// logs a JSON line with msg "gitops-config-api started" and its `listen` address; the
// yardstick servers print {"port": N}. The time from spawn to that line is when it listens; the
// service's first revision may still be loading then (untilReady).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { HttpClient } from './http-client.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
/**
 * The checkout whose service and tool are measured: this one, or with BENCH_SERVICE_ROOT another
 * (an older commit's, measured by these same scripts: `npm run bench -- --clusters … --against <commit>`).
 */
export const SERVICE_ROOT = process.env.BENCH_SERVICE_ROOT ?? PROJECT_ROOT;
export const SERVICE_MAIN = join(SERVICE_ROOT, 'src', 'main.ts');
export const STARTED_MSG = 'gitops-config-api started';

export interface StartOptions {
  env?: Record<string, string>;
  /** Written to the process's stdin, which is then closed. */
  stdin?: string;
  /** Run under `ulimit -n <n>`, as a container with a low open-file limit would. */
  maxOpenFiles?: number;
  /** Give up (and kill the process) after this long; default 10 minutes. */
  timeoutMs?: number;
}

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  /** Milliseconds from spawn until the line saying it listens was read. */
  readyMs: number;
  /** performance.now() at spawn. */
  spawnedAt: number;
  /** Called with every JSON line the process prints from now on. */
  onLine(listener: (line: Record<string, unknown>, at: number) => void): () => void;
  /** SIGTERM, then SIGKILL if it has not exited within 15 s; resolves on exit. */
  stop(): Promise<void>;
}

function readyPort(line: Record<string, unknown>): number | undefined {
  if (typeof line.port === 'number') return line.port;
  if (line.msg === STARTED_MSG && typeof line.listen === 'string') return Number(/:(\d+)$/.exec(line.listen)?.[1]);
  return undefined;
}

export function startNodeProcess(script: string, options: StartOptions = {}): Promise<NodeProcess> {
  const command = options.maxOpenFiles ? 'bash' : process.execPath;
  // exec keeps the pid: the pid spawn returns is the node process itself, for /proc reads.
  const args = options.maxOpenFiles
    ? ['-c', `ulimit -n ${options.maxOpenFiles}; exec "$@"`, 'bench', process.execPath, script]
    : [script];
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: SERVICE_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(options.stdin ?? '');
  const listeners = new Set<(line: Record<string, unknown>, at: number) => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const recent: string[] = [];

  return new Promise((resolve, reject) => {
    let pending = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start within ${options.timeoutMs ?? 600_000} ms:\n${recent.join('\n')}`));
    }, options.timeoutMs ?? 600_000);
    // The stdout pipe is read for the whole life of the process: a pipe nobody reads would
    // block the process on its next log line.
    child.stdout.on('data', (chunk: Buffer) => {
      const at = performance.now();
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop()!;
      for (const text of lines) {
        recent.push(text.slice(0, 500));
        if (recent.length > 20) recent.shift();
        let line: Record<string, unknown>;
        try {
          line = JSON.parse(text) as Record<string, unknown>;
        } catch {
          continue;
        }
        for (const listener of listeners) listener(line, at);
        const port = ready ? undefined : readyPort(line);
        if (port !== undefined) {
          ready = true;
          clearTimeout(timer);
          resolve({
            child,
            pid: child.pid!,
            port,
            readyMs: at - started,
            spawnedAt: started,
            onLine(listener) {
              listeners.add(listener);
              return () => listeners.delete(listener);
            },
            async stop() {
              if (child.exitCode !== null || child.signalCode !== null) return;
              child.kill('SIGTERM');
              const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
              await exited;
              clearTimeout(kill);
            },
          });
        }
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${script} exited (${code ?? signal}) before it was ready:\n${recent.join('\n')}`));
    });
  });
}

/**
 * Milliseconds from spawn until the service's /ready answered 200: it listens once its first
 * revision is loaded, or after waiting 15 s for it (a fleet of 100,000 clusters takes longer),
 * answering 503 until it is. Polled every 20 ms.
 */
export async function untilReady(service: NodeProcess, timeoutMs = 600_000): Promise<number> {
  const client = new HttpClient(service.port, 1);
  try {
    for (;;) {
      if ((await client.get('/ready')).status === 200) return performance.now() - service.spawnedAt;
      if (performance.now() - service.spawnedAt > timeoutMs) throw new Error(`not ready within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    client.close();
  }
}
