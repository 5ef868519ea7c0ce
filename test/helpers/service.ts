// Starts the real service (the same startService as `npm start`) on a loopback port.
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { type RunningService, type StartOptions, startService } from '../../src/server.ts';

export const READ_TOKEN = 'read-token-for-tests';
export const WRITE_TOKEN = 'write-token-for-tests';

export interface TestService extends RunningService {
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** The raw log text, to check that no secret ever appears in it. */
  logText(): string;
  /**
   * Resolves once `count` lines written so far match `matches` (at once if they already have),
   * woken by each line the service writes; rejects after `timeoutMs` saying what was seen.
   */
  untilLogged(
    matches: (line: Record<string, unknown>) => boolean,
    options?: { count?: number; timeoutMs?: number },
  ): Promise<void>;
}

export async function startTestService(
  env: Record<string, string | undefined>,
  options: Omit<StartOptions, 'log'> = {},
): Promise<TestService> {
  const lines: string[] = [];
  const waiting = new Set<() => void>();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      for (const wake of waiting) wake();
      done();
    },
  });
  const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const untilLogged: TestService['untilLogged'] = (matches, { count = 1, timeoutMs = 10_000 } = {}) =>
    new Promise((resolve, reject) => {
      let scanned = 0;
      let found = 0;
      const check = (): void => {
        for (; scanned < lines.length; scanned++)
          if (matches(JSON.parse(lines[scanned]) as Record<string, unknown>)) found++;
        if (found < count) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(
          new Error(
            `${found} of ${count} matching log lines within ${timeoutMs} ms; the last lines: ` +
              `${lines.slice(-20).join('\n')}`,
          ),
        );
      }, timeoutMs);
      waiting.add(check);
      check();
    });
  const config = loadConfig({ AUTH_TOKEN: READ_TOKEN, LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'debug', ...env });
  const log = createLogger(config.logLevel, sink);
  const service = await startService(config, { ...options, log });
  // defineProperty keeps `logs` a getter (Object.assign would read it once, at start-up).
  return Object.defineProperties(service, {
    logs: { get: parsed },
    logText: { value: () => lines.join('\n') },
    untilLogged: { value: untilLogged },
  }) as TestService;
}
