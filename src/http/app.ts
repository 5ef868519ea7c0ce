// Puts the HTTP layer together: the read path first (plain Node, a lookup per request),
// then Express for everything else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { BackendName } from '../store/backends/index.ts';
import type { ApiMode } from '../store/backends/shared-settings.ts';
import { COLLECTIONS } from '../domain/records.ts';
import type { Observability } from '../observability/observability.ts';
import type { Peers } from '../peers/peers.ts';
import { UNMATCHED_ROUTE } from '../observability/request-counts.ts';
import type { CurrentResponses } from '../serving/current-responses.ts';
import type { StoreRunner } from '../store/runner/store-runner.ts';
import type { Authenticator } from './auth/authenticator.ts';
import { toApiError } from './error-mapping.ts';
import { ApiError, writeError } from './errors.ts';
import { fleetRoutes } from './routes/fleet-routes.ts';
import { METRICS_PATH, metricsRoutes } from './routes/metrics-routes.ts';
import { CHANGES_PATH, CHANGES_PREVIEW_PATH } from './paths.ts';
import { createReadHandler } from './read/read-handler.ts';
import { securityHeaders } from './transport/security-headers.ts';
import { serviceRoutes } from './routes/service-routes.ts';
import { callerOf } from './auth/authorize.ts';
import { whoamiRoutes } from './routes/whoami-routes.ts';
import { revisionRoutes } from './routes/revision-routes.ts';
import { type UiState, uiRoutes } from './web-ui/ui-routes.ts';

export interface AppDeps {
  apiMode: ApiMode;
  backend: BackendName;
  responses: CurrentResponses;
  store: StoreRunner;
  auth: Authenticator;
  log: Logger;
  openapiDocument: Buffer;
  /** True once shutdown has begun (/ready then answers 503). */
  shuttingDown?: () => boolean;
  /** Extra routes mounted before the fallbacks (REST in crud mode, the Git webhook). */
  routers?: express.Router[];
  /** Metrics and the fleet poll registry; absent with METRICS=off. */
  observability?: Observability;
  /**
   * The other replicas (PEERS): their polls merged into the fleet view, and the hold on polls; absent without PEERS.
   */
  peers?: Peers;
  /** The web UI's files at /ui/; absent: as with UI=off. */
  ui?: UiState;
}

export function createRequestHandler(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const handleRead = createReadHandler({ ...deps, hold: deps.peers?.hold });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('json spaces', 0);

  const requests = deps.observability?.metrics.requests;
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'info';
      // Probes and scrapes come every few seconds (Kubernetes, Prometheus); keep them out of the info log.
      const probe = req.path === '/health' || req.path === '/ready' || req.path === METRICS_PATH;
      deps.log[probe && res.statusCode < 500 ? 'debug' : level](
        { method: req.method, path: req.path, status: res.statusCode, ms },
        'request',
      );
      // The matched route's pattern (/clusters/:id), never the path: ids and unknown paths would make a series each.
      const matched = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof matched === 'string' ? req.baseUrl + matched : UNMATCHED_ROUTE;
      // A request without a valid credential has no caller: anonymous. One refused for its
      // scope keeps its caller's kind (403, and the read token's 401 on a write).
      const caller = callerOf(res)?.kind ?? 'anonymous';
      requests
        ?.route(route)
        .method(req.method)
        .record(res.statusCode, ms / 1000, caller);
    });
    next();
  });

  app.use(serviceRoutes(deps));
  app.use(metricsRoutes(deps.observability?.metrics));
  app.use(fleetRoutes({ auth: deps.auth, fleet: deps.observability?.fleet, peers: deps.peers }));
  app.use(whoamiRoutes(deps.auth));
  app.use(revisionRoutes({ auth: deps.auth, store: deps.store }));
  for (const router of deps.routers ?? []) app.use(router);
  app.use(uiRoutes(deps.ui ?? { kind: 'off' }));

  if (deps.apiMode === 'read-only') {
    const restPaths = [...COLLECTIONS.flatMap((c) => [`/${c}`, `/${c}/*rest`]), CHANGES_PATH, CHANGES_PREVIEW_PATH];
    app.all(restPaths, () => {
      throw new ApiError(
        'not_found',
        'the REST endpoints are served only in crud mode; start the service with API_MODE=crud',
      );
    });
  }

  app.use(() => {
    throw new ApiError('not_found', 'no such endpoint; see /openapi.yaml');
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const apiError = toApiError(error);
    if (apiError.code === 'internal_error') deps.log.error({ err: error, path: req.path }, 'request failed');
    else if (apiError.status >= 500)
      deps.log.warn({ path: req.path, error: apiError.code, message: apiError.message }, 'request failed');
    res.status(apiError.status).set(apiError.headers).set('cache-control', 'no-store').json(apiError.body());
  });

  return (req, res) => {
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      refuseWithoutHost(req, res, deps.log);
      return;
    }
    if (handleRead(req, res)) return;
    const security = securityHeaders(req.socket);
    for (let i = 0; i < security.length; i += 2) res.setHeader(security[i], security[i + 1]);
    app(req, res);
  };
}

/**
 * HTTP/1.1 requires Host on every request (RFC 9112): a request without one is refused, as
 * Node would, but with the JSON error body, and its connection closed as after any request
 * that broke the protocol.
 */
function refuseWithoutHost(req: IncomingMessage, res: ServerResponse, log: Logger): void {
  const error = new ApiError('bad_request', 'the request has no Host header; HTTP/1.1 requires one', {
    headers: { connection: 'close' },
  });
  log.warn(
    { method: req.method, path: req.url, remote: req.socket.remoteAddress, error: error.code },
    'request refused: no Host header',
  );
  writeError(res, error, req.method === 'HEAD');
}
