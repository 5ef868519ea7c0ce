// The flux-read endpoints under /api/v2/gitops/. Thousands of clusters poll these, so they
// bypass Express: authenticate, look the prepared response up, write its bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { isPerClusterEndpoint, MAX_RESPONSE_BYTES } from '../domain/projections/index.ts';
import type { PreparedResponse } from '../serving/prepared-response.ts';
import type { RevisionResponses } from '../serving/revision-responses.ts';
import type { ServedResponses } from '../serving/served-responses.ts';
import type { Authenticator } from './auth.ts';
import type { Caller } from './caller.ts';
import { toApiError } from './error-mapping.ts';
import { ApiError, writeError } from './errors.ts';
import { parseFleetListQuery } from './fleet-list-query.ts';
import type { RequestCounts } from '../observability/request-counts.ts';
import type { FleetPolls } from '../serving/fleet-polls.ts';
import { createReadObserver } from './read-observer.ts';
import { acceptsGzip } from './content-coding.ts';
import { securityHeaders } from './security-headers.ts';

export const READ_PREFIX = '/api/v2/gitops/';
/** The fleet view is under the read prefix but not a prepared response: Express serves it (fleet-routes.ts). */
export const FLEET_PATH = `${READ_PREFIX}fleet`;

export interface ReadHandlerDeps {
  responses: ServedResponses;
  auth: Authenticator;
  log: Logger;
  /** Where answered requests are counted and polls recorded; absent with METRICS=off. */
  observability?: { metrics: { requests: RequestCounts }; polls: FleetPolls };
}

/** Handles the request when its path is under the read prefix; returns false otherwise. */
export function createReadHandler({ responses, auth, log, observability }: ReadHandlerDeps) {
  const observe = observability && createReadObserver(READ_PREFIX, observability.metrics.requests, observability.polls);
  return function handleRead(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!path.startsWith(READ_PREFIX) || path === FLEET_PATH) return false;

    const started = performance.now();
    let caller: Caller | Promise<Caller>;
    try {
      caller = auth.requireCaller(req, 'read');
    } catch (error) {
      answer(req, res, url, queryAt, path, started, error);
      return true;
    }
    // A shared token is checked at once; only a person's token waits for the issuer's keys.
    if (caller instanceof Promise) {
      caller.then(
        () => answer(req, res, url, queryAt, path, started, undefined),
        (error: unknown) => answer(req, res, url, queryAt, path, started, error ?? new Error('authentication failed')),
      );
    } else {
      answer(req, res, url, queryAt, path, started, undefined);
    }
    return true;
  };

  /** Answers a read whose authentication is done: `refused` is why it failed, undefined when it passed. */
  function answer(req: IncomingMessage, res: ServerResponse, url: string, queryAt: number, path: string, started: number, refused: unknown): void {
    const head = req.method === 'HEAD';
    let status: number;
    let revision: string | undefined;
    let prepared: PreparedResponse | undefined;
    try {
      if (req.method !== 'GET' && !head) {
        throw new ApiError('method_not_allowed', `${req.method} is not allowed here; the read endpoints answer GET and HEAD`, {
          headers: { allow: 'GET, HEAD' },
        });
      }
      if (refused !== undefined) throw refused;
      const served = responses.current();
      if (!served) throw new ApiError('unavailable', 'no configuration has been loaded yet; see /ready', { headers: { 'retry-after': '5' } });
      revision = served.revision;
      prepared = lookup(served, path, queryAt === -1 ? '' : url.slice(queryAt + 1));
      status = writePrepared(req, res, prepared, head);
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500) log.error({ err: error, path }, 'read request failed');
      status = apiError.status;
      writeError(res, apiError, head);
    }
    observe?.(req, path, prepared, status, started);
    logRead(log, req, path, status, revision, started);
  }
}

function lookup(cache: RevisionResponses, path: string, query: string): PreparedResponse {
  const rest = path.slice(READ_PREFIX.length);
  if (rest === 'clusters') return fleetList(cache, query);
  const known = cache.byPath(path);
  if (known) return known;
  const match = /^clusters\/([^/]+)\/([^/]+)$/.exec(rest);
  if (!match || !isPerClusterEndpoint(match[2]!)) {
    throw new ApiError('not_found', `no such endpoint: ${path}; see /openapi.yaml`);
  }
  let dns: string;
  try {
    dns = decodeURIComponent(match[1]!);
  } catch {
    throw new ApiError('not_found', 'the cluster DNS name in the path is not valid percent-encoding');
  }
  const prepared = cache.forCluster(match[2], dns);
  if (!prepared) throw new ApiError('not_found', `no cluster has cluster_dns "${dns}"`);
  cache.rememberPath(path, dns, prepared);
  return prepared;
}

/** The fleet listing, whole or filtered; too large a list is refused, naming the filters that cut it. */
function fleetList(cache: RevisionResponses, query: string): PreparedResponse {
  const filter = parseFleetListQuery(query);
  const prepared = cache.clustersList(filter);
  if (prepared.kind === 'oversized') {
    const shards = Math.ceil(((filter.shard?.count ?? 1) * prepared.bytes) / (0.8 * MAX_RESPONSE_BYTES));
    throw new ApiError(
      'response_too_large',
      `the listing would be ${prepared.bytes} bytes, over the 900 KiB limit (${MAX_RESPONSE_BYTES} bytes); ` +
        `ask for part of it: ?shard=<i>/<n> (n = ${shards} or more) or ?environment=<dev|qa|uat|prod>`,
    );
  }
  return prepared;
}

function writePrepared(req: IncomingMessage, res: ServerResponse, prepared: PreparedResponse, head: boolean): number {
  if (prepared.kind === 'oversized') {
    throw new ApiError(
      'internal_error',
      `the response would be ${prepared.bytes} bytes, over the consumer's limit of 921600 bytes (900 KiB); ` +
        'it is refused rather than truncated: split the cluster\'s references or shorten its patches',
    );
  }
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  // The prepared headers are shared by every poll: the connection's own are added to a copy.
  const security = securityHeaders(req.socket);
  if (etagMatches(req.headers['if-none-match'], prepared.etag)) {
    res.writeHead(304, [...prepared.notModifiedHeaders(gzip), ...security]);
    res.end();
    return 304;
  }
  res.writeHead(200, [...prepared.headers(gzip), ...security]);
  res.end(head ? undefined : gzip ? prepared.gzipped() : prepared.body);
  return 200;
}

/** Both variants (identity and gzip) of one body share its hash, so either tag revalidates. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const hash = etag.slice(1, -1);
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
    return tag === hash || tag === `${hash}-gzip`;
  });
}

function logRead(log: Logger, req: IncomingMessage, path: string, status: number, revision: string | undefined, started: number): void {
  // A fleet polls these endpoints all day: successful polls are logged at debug, failures
  // that point at a misconfigured client at warn, server faults at error.
  const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'debug';
  if (!log.isLevelEnabled(level)) return;
  log[level](
    {
      method: req.method,
      path,
      status,
      ms: performance.now() - started,
      revision,
      remote: req.socket.remoteAddress,
      user_agent: req.headers['user-agent'],
    },
    'read request',
  );
}
