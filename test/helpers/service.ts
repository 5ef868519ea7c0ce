// Starts the real service (the same startService as `npm start`) on a loopback port.
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningService, type StartOptions, startService } from '../../src/server.ts';

export const READ_TOKEN = 'read-token-for-tests';
export const WRITE_TOKEN = 'write-token-for-tests';

export interface TestService extends RunningService {
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** The raw log text, to check that no secret ever appears in it. */
  logText(): string;
}

export async function startTestService(env: Record<string, string | undefined>, options: Omit<StartOptions, 'log'> = {}): Promise<TestService> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ AUTH_TOKEN: READ_TOKEN, LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'debug', ...env });
  const log = createLogger(config.logLevel, sink);
  const service = await startService(config, { ...options, log });
  // defineProperty keeps `logs` a getter (Object.assign would read it once, at start-up).
  return Object.defineProperties(service, {
    logs: { get: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) },
    logText: { value: () => lines.join('\n') },
  }) as TestService;
}
