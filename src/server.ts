// Builds and starts the whole service from a configuration. main.ts calls this; so do the
// integration tests, which therefore run exactly the server that production runs.
import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { type ServiceConfig, tokenWarnings } from './config.ts';
import { createRequestHandler } from './http/app.ts';
import { Authenticator } from './http/auth/authenticator.ts';
import type { PersonVerifier } from './http/auth/caller.ts';
import { ConnectionTracker } from './http/transport/connections.ts';
import { peerTls } from './http/transport/peer-tls.ts';
import { apiRouters } from './http/routes/api-routers.ts';
import { startRolloutProgress } from './serving/rollouts/rollout-start.ts';
import type { RolloutProgressService } from './serving/rollouts/rollout-progress-service.ts';
import { OidcPersonVerifier } from './http/auth/oidc/oidc-person-verifier.ts';
import { TlsContext } from './http/transport/tls-context.ts';
import { UI_BUILD_DIR, UiFiles } from './http/web-ui/ui-files.ts';
import { type UiState, uiContentSecurityPolicy, uiSettings } from './http/web-ui/ui-routes.ts';
import { createLogger } from './shared/logger.ts';
import { redactUrls } from './shared/redact-url.ts';
import { createObservability } from './observability/observability.ts';
import { Peers } from './peers/peers.ts';
import { CurrentResponses } from './serving/current-responses.ts';
import { ClusterEvents } from './serving/cluster-events.ts';
import { StartupError } from './shared/startup-error.ts';
import { createBackend } from './store/backends/index.ts';
import { StoreRunner } from './store/runner/store-runner.ts';
import type { ReceiverNotifier } from './serving/receivers/receiver-notifier.ts';
import { startReceiverNotifier } from './serving/receivers/receiver-start.ts';

export interface RunningService {
  /** An HTTPS server when TLS_CERT_FILE and TLS_KEY_FILE are set. */
  server: HttpServer | HttpsServer;
  /** http(s)://host:port of the bound socket. */
  url: string;
  /** The certificates served and their reloads; undefined for plain HTTP. */
  tls: TlsContext | undefined;
  port: number;
  store: StoreRunner;
  responses: CurrentResponses;
  /** The other replicas, with PEERS. */
  peers: Peers | undefined;
  /** The events the clusters sent this replica (POST /api/v2/gitops/events). */
  events: ClusterEvents;
  /** Rollout progress and, with ROLLOUT_AUTO_ADVANCE, its releases; absent with METRICS=off (no poll records). */
  rollouts: RolloutProgressService | undefined;
  /** Notices to clusters' Flux Receivers after each publication; undefined while receivers are off. */
  receivers: ReceiverNotifier | undefined;
  log: Logger;
  /**
   * Stops accepting connections, closes those with no request in flight at once (the others
   * right after their response), lets in-flight requests finish, stops the store.
   */
  close(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  /** Checks people's OIDC tokens; without one a JWT is refused like any unknown token. */
  persons?: PersonVerifier;
}

export async function startService(config: ServiceConfig, options: StartOptions = {}): Promise<RunningService> {
  const log = options.log ?? createLogger(config.logLevel);
  let openapiDocument: Buffer;
  try {
    openapiDocument = readFileSync(config.openapiFile);
  } catch (error) {
    throw new StartupError(
      `OPENAPI_FILE ${config.openapiFile} cannot be read: ` +
        `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  // Before the store: a certificate problem stops the start at once, not after a clone.
  const tls = config.tls ? TlsContext.load(config.tls, log) : undefined;
  const store = new StoreRunner(createBackend(config, log), {
    log,
    acceptShrink: config.guardAcceptRevisions,
    writeTimeoutMs: config.writeTimeoutMs,
    receiverHosts: config.receiverHosts,
  });
  const peers = config.peers
    ? new Peers({
        settings: config.peers,
        store,
        log,
        own: { scheme: tls ? 'https' : 'http', port: config.listen.port },
        tls: tls && peerTls(tls, config.peers),
      })
    : undefined;
  // Every publication is announced to the other replicas before it is served.
  if (peers) store.setBeforePublish((revision) => peers.announce(revision));
  const responses = new CurrentResponses(store);
  // Before the store starts, so that the first publication is counted too.
  const observability = config.metrics
    ? createObservability(store, responses, config.fleetPollIntervalMs, peers)
    : undefined;
  // What the clusters report (POST /api/v2/gitops/events), kept within EVENTS_MEMORY.
  const events = new ClusterEvents(config.eventMemoryBytes, store);
  observability?.metrics.followEvents(events);
  const rollouts = startRolloutProgress(config, store, responses, { polls: observability?.polls, events }, peers, log);
  if (rollouts) observability?.metrics.followRollouts(rollouts.evaluations);
  const receivers = startReceiverNotifier(config, store, log);
  if (receivers) observability?.metrics.followReceivers(receivers);
  // People's tokens: the issuer is looked up in the background, so an issuer that is down
  // does not hold up the start (person tokens are answered 503 until it is back).
  // A verifier handed in (tests, embedding) takes the place of the configured issuer.
  const oidc = options.persons === undefined && config.oidc ? new OidcPersonVerifier(config.oidc, log) : undefined;
  const persons = options.persons ?? oidc;
  const auth = new Authenticator({
    readToken: config.authToken,
    writeToken: config.apiMode === 'crud' ? config.crudAuthToken : undefined,
    clusterTokenKeys: config.clusterTokenKeys,
    clientCertificates: config.tls?.clientCaFile !== undefined,
    persons,
    currentSnapshot: () => responses.current()?.snapshot,
  });
  for (const warning of tokenWarnings(config)) log.warn(warning);
  await store.start();
  oidc?.start();

  const routers = apiRouters({
    apiMode: config.apiMode,
    webhookSecret: config.webhookSecret,
    maxBodyBytes: config.maxBodyBytes,
    clusterTokenKeys: config.clusterTokenKeys,
    eventRate: config.eventRate,
    store,
    auth,
    log,
    peers: peers && { peers, token: config.peers!.token },
    events,
    polls: observability?.polls,
    rollouts,
  });
  const ui = webUi(config, log);
  const connections = new ConnectionTracker(log);
  const handler = createRequestHandler({
    apiMode: config.apiMode,
    backend: config.backend,
    responses,
    store,
    auth,
    log,
    openapiDocument,
    routers,
    observability,
    peers,
    ui,
    shuttingDown: () => connections.closing,
  });
  const limits = config.http;
  const serverOptions = {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    headersTimeout: limits.headerTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node looks for requests past those timeouts (its default, 30 s, would let a
    // 10 s header timeout run to 40 s): every second, or four times per header timeout when
    // that is shorter.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headerTimeoutMs / 4))),
    // Node would answer a request without Host with an empty 400; the handler answers it with
    // the JSON error body instead (http/app.ts).
    requireHostHeader: false,
  };
  const server = tls
    ? tls.createServer({ ...serverOptions, handshakeTimeout: limits.tlsHandshakeTimeoutMs }, connections.wrap(handler))
    : createServer(serverOptions, connections.wrap(handler));
  // Connections past the limit are closed as they arrive, before a byte is read; the tracker logs them.
  server.maxConnections = limits.maxConnections;
  connections.attach(server);
  await new Promise<void>((resolve, reject) => {
    const cannotListen = (error: NodeJS.ErrnoException) => {
      tls?.close();
      peers?.close();
      oidc?.close();
      rollouts?.stop();
      receivers?.stop();
      void store.stop();
      reject(
        new StartupError(
          `cannot listen on ${config.listen.host}:${config.listen.port}: ${error.code ?? error.message}`,
        ),
      );
    };
    server.once('error', cannotListen);
    server.listen(config.listen.port, config.listen.host, () => {
      server.off('error', cannotListen);
      resolve();
    });
  });
  connections.listening(server);
  const address = server.address() as AddressInfo;
  await peers?.listeningOn(address.port);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${tls ? 'https' : 'http'}://${host}:${address.port}`;
  log.info(
    {
      mode: config.apiMode,
      backend: config.backend,
      revision: store.published()?.snapshot.revision ?? null,
      listen: `${host}:${address.port}`,
      config_repo: config.backend === 'git' ? redactUrls(config.configRepo) : undefined,
      tls: tls ? { ...tls.certificate, client_certificates: tls.requiresClientCertificates } : undefined,
      peers: config.peers ? { ...config.peers.source, instance: peers!.instance } : undefined,
    },
    'gitops-config-api started',
  );

  let closing: Promise<void> | undefined;
  return {
    server,
    url,
    tls,
    port: address.port,
    store,
    responses,
    peers,
    events,
    rollouts,
    receivers,
    log,
    close() {
      closing ??= (async () => {
        tls?.close();
        oidc?.close();
        await connections.close(server);
        rollouts?.stop();
        receivers?.stop();
        await store.stop();
        peers?.close();
      })();
      return closing;
    },
  };
}

/** The web UI's files, read once; a checkout that was never built serves the API without it. */
function webUi(config: ServiceConfig, log: Logger): UiState {
  if (!config.ui) return { kind: 'off' };
  const files = UiFiles.load();
  if (files)
    return {
      kind: 'on',
      files: files.withGenerated('config.json', uiSettings(config), 'application/json'),
      contentSecurityPolicy: uiContentSecurityPolicy(config.oidc),
    };
  log.warn(
    { ui_dir: UI_BUILD_DIR },
    'the web UI is not built (run npm run build): /ui/ answers 404; the API is served as usual',
  );
  return { kind: 'not-built' };
}
