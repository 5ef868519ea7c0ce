// Builds and starts the whole service from a configuration. main.ts calls this; so do the
// integration tests, which therefore run exactly the server that production runs.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.ts';
import { Authenticator } from './http/auth.ts';
import { createRequestHandler } from './http/app.ts';
import { restRoutes } from './http/rest-routes.ts';
import { createLogger } from './logger.ts';
import { SnapshotPublisher } from './serving/publisher.ts';
import { type ConfigStore, isWritableStore, StoreStartError } from './store/config-store.ts';
import { LocalRepoStore } from './store/git/local-repo-store.ts';
import { RemoteRepoStore } from './store/git/remote-repo-store.ts';
import { gitCredentials, redactUrl, splitUrlCredentials } from './store/git/remote-auth.ts';
import { MemoryStore } from './store/memory-store.ts';
import { webhookRoutes } from './http/webhook-routes.ts';
import { parseSqliteDsn } from './store/sqlite/dsn.ts';
import { SqliteStore } from './store/sqlite/sqlite-store.ts';

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
        const fromUrl = splitUrlCredentials(config.configRepo);
        return new RemoteRepoStore({
          url: fromUrl.url,
          branch: config.configBranch,
          cloneDir: config.cloneDir,
          syncIntervalMs: config.syncIntervalMs,
          credentials:
            gitCredentials({ token: config.gitToken, username: config.gitUsername, password: config.gitPassword }) ?? fromUrl.credentials,
          publisher,
          log,
          writable: config.apiMode === 'crud',
          author: { name: config.gitAuthorName, email: config.gitAuthorEmail },
        });
      }
      return new LocalRepoStore({
        dir: config.configRepo,
        publisher,
        log,
        writable: config.apiMode === 'crud',
        author: { name: config.gitAuthorName, email: config.gitAuthorEmail },
      });
    case 'sqlite': {
      const dsn = parseSqliteDsn(config.databaseUrl);
      if (dsn.mode === 'ro' && config.apiMode === 'crud') {
        throw new StoreStartError(
          `DATABASE_URL opens the database read-only (mode=ro), but API_MODE=crud writes to it; use mode=rw or mode=rwc, or API_MODE=read-only`,
        );
      }
      return new SqliteStore({ dsn, seedFile: config.seedFile, publisher, log });
    }
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
  if (config.apiMode === 'crud' && !isWritableStore(store)) {
    throw new StoreStartError(`API_MODE=crud needs a store that accepts writes; STORE_BACKEND=${config.backend} does not`);
  }
  await store.start();

  const routers = [];
  if (config.webhookSecret) {
    if (store instanceof RemoteRepoStore) routers.push(webhookRoutes({ secret: config.webhookSecret, target: store, log }));
    else log.warn('WEBHOOK_SECRET is set, but CONFIG_REPO is not a remote repository: POST /hooks/git stays off');
  }
  if (config.apiMode === 'crud' && isWritableStore(store)) {
    routers.push(restRoutes({ store, publisher, auth, log, maxBodyBytes: config.maxBodyBytes }));
  }
  const handler = createRequestHandler({ apiMode: config.apiMode, publisher, store, auth, log, openapiDocument, routers });
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
      config_repo: config.backend === 'git' ? redactUrl(config.configRepo) : undefined,
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
