// Entry point: `npm start`. Configuration problems end the start with one line on stderr.
import module from 'node:module';

// Node keeps what it compiled of the service's modules in its compile cache (the folder
// NODE_COMPILE_CACHE names, else node-compile-cache in the system's temp folder; written to a
// temporary file and renamed): every later start — a restarted container, a rolled Deployment —
// then spends about 1 s less CPU before it serves (2.3 against 1.35 s on the example repo).
// Where the folder cannot be written Node goes on without it; NODE_DISABLE_COMPILE_CACHE=1 turns
// it off. The modules are imported after, so that their compilation is what the cache keeps.
module.enableCompileCache?.();
const [{ loadConfig }, { redactUrls }, { startService }, { StartupError }] = await Promise.all([
  import('./config.ts'),
  import('./shared/redact-url.ts'),
  import('./server.ts'),
  import('./shared/startup-error.ts'),
]);

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
