// Builds and starts the whole service from a configuration. main.ts calls this; so do the
// integration tests, which therefore run exactly the server that production runs.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.ts';
import { Authenticator } from './http/auth.ts';
import { createRequestHandler } from './http/app.ts';
import { createLogger } from './logger.ts';
import { SnapshotPublisher } from './serving/publisher.ts';
import { type ConfigStore, StoreStartError } from './store/config-store.ts';
import { LocalRepoStore } from './store/git/local-repo-store.ts';
import { MemoryStore } from './store/memory-store.ts';

export interface RunningService {
  server: Server;
  /** http://host:port of the bound socket. */
  url: string;
  port: number;
  publisher: SnapshotPublisher;
  store: ConfigStore;
  log: Logger;
  /** Stops accepting connections, lets in-flight requests finish, stops the store. */
  close(): Promise<void>;
}

export function createStore(config: ServiceConfig, publisher: SnapshotPublisher, log: Logger): ConfigStore {
  switch (config.backend) {
    case 'memory':
      return new MemoryStore({ seedFile: config.seedFile, publisher, log });
    case 'git':
      if (/^https?:\/\//.test(config.configRepo)) {
        throw new StoreStartError('CONFIG_REPO as an http(s) URL is not supported yet; use a local checkout');
      }
      return new LocalRepoStore({ dir: config.configRepo, publisher, log });
    case 'sqlite':
      throw new StoreStartError('STORE_BACKEND=sqlite is not available yet; use git or memory');
  }
}

export async function startService(config: ServiceConfig, options: { log?: Logger } = {}): Promise<RunningService> {
  const log = options.log ?? createLogger(config.logLevel);
  let openapiDocument: Buffer;
  try {
    openapiDocument = readFileSync(config.openapiFile);
  } catch (error) {
    throw new StoreStartError(`OPENAPI_FILE ${config.openapiFile} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const publisher = new SnapshotPublisher();
  const store = createStore(config, publisher, log);
  const auth = new Authenticator(config.authToken, config.apiMode === 'crud' ? config.crudAuthToken : undefined);
  await store.start();

  const handler = createRequestHandler({ apiMode: config.apiMode, publisher, store, auth, log, openapiDocument });
  const server = createServer({ keepAliveTimeout: 65_000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      void store.stop();
      reject(new StoreStartError(`cannot listen on ${config.listen.host}:${config.listen.port}: ${error.code ?? error.message}`));
    });
    server.listen(config.listen.port, config.listen.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log.info(
    {
      mode: config.apiMode,
      backend: config.backend,
      revision: publisher.current()?.revision ?? null,
      listen: `${host}:${address.port}`,
      config_repo: config.backend === 'git' ? config.configRepo : undefined,
    },
    'gitops-config-api started',
  );

  let closing: Promise<void> | undefined;
  return {
    server,
    url,
    port: address.port,
    publisher,
    store,
    log,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await store.stop();
      })();
      return closing;
    },
  };
}
