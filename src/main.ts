// Entry point: `npm start`. Configuration problems end the start with one line on stderr.
import { loadConfig } from './config.ts';
import { redactUrls } from './shared/redact-url.ts';
import { startService } from './server.ts';
import { StartupError } from './shared/startup-error.ts';

/** How long in-flight requests may take to finish after SIGTERM (docs/decisions/0012-operations.md). */
const SHUTDOWN_LIMIT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const service = await startService(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // A stuck client must not keep the pod from terminating.
    setTimeout(() => {
      service.log.warn(
        { limit_ms: SHUTDOWN_LIMIT_MS },
        'shutting down: requests still in flight at the time limit are cut off',
      );
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  const known = error instanceof StartupError;
  const message = known ? error.message : `failed to start: ${String((error as Error)?.message ?? error)}`;
  process.stderr.write(`gitops-config-api: ${redactUrls(message)}\n`);
  process.exit(known ? 2 : 1);
});
