// The flux-read endpoints under /api/v2/gitops/. Thousands of clusters poll these, so they
// bypass Express: authenticate, check the caller's scope, look the prepared response up,
// write its bytes. Service and cluster credentials are checked without a promise; only a
// person's token (checked against the OIDC issuer's keys) makes the answer wait.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { dnsKey } from '../../domain/cluster-dns.ts';
import { isPerClusterEndpoint, MAX_RESPONSE_BYTES } from '../../domain/projections/index.ts';
import { ENVIRONMENTS } from '../../domain/records.ts';
import type { ServedResponse } from '../../serving/served-response.ts';
import type { ResponseTable } from '../../serving/response-table.ts';
import type { CurrentResponses } from '../../serving/current-responses.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Caller, CallerKind } from '../auth/caller.ts';
import { toApiError } from '../error-mapping.ts';
import { ApiError, methodNotAllowed, notLoaded, writeError } from '../errors.ts';
import { parseFleetListQuery } from './fleet-list-query.ts';
import type { RequestCounts } from '../../observability/request-counts.ts';
import type { FleetPolls } from '../../serving/fleet-polls.ts';
import { createReadObserver } from './read-observer.ts';
import { acceptsGzip } from '../transport/content-coding.ts';
import { securityHeaders } from '../transport/security-headers.ts';
import { mayReadCluster, outsideScope } from '../auth/scopes.ts';
import { READ_PREFIX, servedByExpress } from '../paths.ts';
import { etagMatches } from '../etag-match.ts';

export interface ReadHandlerDeps {
  responses: CurrentResponses;
  auth: Authenticator;
  log: Logger;
  /** Where answered requests are counted and polls recorded; absent with METRICS=off. */
  observability?: { metrics: { requests: RequestCounts }; polls: FleetPolls };
  /**
   * Polls wait while `active` (PEERS: another replica announced a revision this one is
   * fetching; src/peers/revision-hold.ts); absent without PEERS.
   */
  hold?: { readonly active: boolean; wait(): Promise<void> };
}

/** Handles the request when its path is under the read prefix; returns false otherwise. */
export function createReadHandler({ responses, auth, log, observability, hold }: ReadHandlerDeps) {
  const observe = observability && createReadObserver(READ_PREFIX, observability.metrics.requests, observability.polls);

  // The steps below are functions made once, taking the request's state as arguments: a poll
  // allocates no closure of its own.
  const finish = (
    req: IncomingMessage,
    path: string,
    status: number,
    started: number,
    kind: CallerKind,
    table: ResponseTable | undefined,
    prepared: ServedResponse | undefined,
  ): void => {
    observe?.(req, path, prepared, status, started, kind);
    logRead(log, req, path, status, table?.revision, started, kind);
  };
  const fail = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    started: number,
    kind: CallerKind,
    table: ResponseTable | undefined,
    prepared: ServedResponse | undefined,
    error: unknown,
  ): void => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) log.error({ err: error, path }, 'read request failed');
    writeError(res, apiError, req.method === 'HEAD');
    finish(req, path, apiError.status, started, kind, table, prepared);
  };
  const answer = (req: IncomingMessage, res: ServerResponse, path: string, started: number, caller: Caller): void => {
    const table = responses.current();
    let prepared: ServedResponse | undefined;
    try {
      if (!table) throw notLoaded();
      // The path is the URL up to its `?`, if it has one.
      const url = req.url!;
      prepared = lookupFor(caller, table, path, url.length === path.length ? '' : url.slice(path.length + 1));
      const status = writePrepared(req, res, prepared, req.method === 'HEAD');
      finish(req, path, status, started, caller.kind, table, prepared);
    } catch (error) {
      fail(req, res, path, started, caller.kind, table, prepared, error);
    }
  };

  return function handleRead(req: IncomingMessage, res: ServerResponse, held = false): boolean {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!path.startsWith(READ_PREFIX) || servedByExpress(path)) return false;
    // Answered once the hold ends, from whatever is served then; a request waits once at most.
    // Its time (the poll's, for the fleet view) and its duration are taken when it is answered.
    if (hold?.active && !held) {
      void hold.wait().then(() => handleRead(req, res, true));
      return true;
    }

    const started = performance.now();
    let caller: Caller | Promise<Caller>;
    try {
      // A server's request always has its method: `String` only satisfies the type.
      if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(String(req.method), path, 'GET, HEAD');
      caller = auth.authenticate(req);
    } catch (error) {
      fail(req, res, path, started, 'anonymous', undefined, undefined, error);
      return true;
    }
    if (caller instanceof Promise) {
      caller.then(
        (c) => answer(req, res, path, started, c),
        (error: unknown) => fail(req, res, path, started, 'anonymous', undefined, undefined, error),
      );
    } else answer(req, res, path, started, caller);
    return true;
  };
}

/**
 * The response for the path, if the caller may read it. A caller limited to some clusters
 * reads their per-cluster endpoints only: anything else, the listing included, is 403, and so
 * is a cluster name that is not its own, known or not (a 404 would tell it which names exist).
 */
function lookupFor(caller: Caller, cache: ResponseTable, path: string, query: string): ServedResponse {
  if (caller.clusters === undefined && caller.roles.has('read')) return lookup(cache, path, query);
  const known = cache.byPath(path);
  const subject = known?.kind === 'body' ? known.subject : undefined;
  if (subject !== undefined) {
    if (mayReadCluster(caller, subject.clusterId)) return known!;
    throw outsideScope(caller, cache.snapshot);
  }
  const cluster = clusterOfPath(cache, path);
  if (cluster === undefined || !mayReadCluster(caller, cluster)) throw outsideScope(caller, cache.snapshot);
  return lookup(cache, path, query);
}

/** The id of the cluster a per-cluster path names, in this revision; undefined for any other path. */
function clusterOfPath(cache: ResponseTable, path: string): string | undefined {
  const match = /^clusters\/([^/]+)\/([^/]+)$/.exec(path.slice(READ_PREFIX.length));
  if (!match || !isPerClusterEndpoint(match[2])) return undefined;
  try {
    return cache.snapshot.clustersByDns.get(dnsKey(decodeURIComponent(match[1])))?.id;
  } catch {
    return undefined;
  }
}

function lookup(cache: ResponseTable, path: string, query: string): ServedResponse {
  const rest = path.slice(READ_PREFIX.length);
  if (rest === 'clusters') return fleetList(cache, query);
  const known = cache.byPath(path);
  if (known) return known;
  const match = /^clusters\/([^/]+)\/([^/]+)$/.exec(rest);
  if (!match || !isPerClusterEndpoint(match[2])) {
    throw new ApiError('not_found', `no such endpoint: ${path}; see /openapi.yaml`);
  }
  let dns: string;
  try {
    dns = decodeURIComponent(match[1]);
  } catch {
    throw new ApiError('not_found', 'the cluster DNS name in the path is not valid percent-encoding');
  }
  const prepared = cache.forCluster(match[2], dns);
  if (!prepared) throw new ApiError('not_found', `no cluster has cluster_dns "${dns}"`);
  cache.rememberPath(path, dns, prepared);
  return prepared;
}

/** The fleet listing, whole or filtered; too large a list is refused, naming the filters that cut it. */
function fleetList(cache: ResponseTable, query: string): ServedResponse {
  const filter = parseFleetListQuery(query);
  const prepared = cache.clustersList(filter);
  if (prepared.kind === 'oversized') {
    const shards = Math.ceil(((filter.shard?.count ?? 1) * prepared.bytes) / (0.8 * MAX_RESPONSE_BYTES));
    throw new ApiError(
      'response_too_large',
      `the listing would be ${prepared.bytes} bytes, over the 900 KiB limit (${MAX_RESPONSE_BYTES} bytes); ` +
        `ask for part of it: ?shard=<i>/<n> (n = ${shards} or more) or ?environment=<${ENVIRONMENTS.join('|')}>`,
    );
  }
  return prepared;
}

function writePrepared(req: IncomingMessage, res: ServerResponse, prepared: ServedResponse, head: boolean): number {
  if (prepared.kind === 'oversized') {
    throw new ApiError(
      'internal_error',
      `the response would be ${prepared.bytes} bytes, over the consumer's limit of 921600 bytes (900 KiB); ` +
        "it is refused rather than truncated: split the cluster's references or shorten its patches",
    );
  }
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  // The answer's headers, ending with the connection's own.
  const security = securityHeaders(req.socket);
  if (etagMatches(req.headers['if-none-match'], prepared.etag)) {
    res.writeHead(304, prepared.notModifiedHeaders(gzip, security));
    res.end();
    return 304;
  }
  res.writeHead(200, prepared.headers(gzip, security));
  res.end(head ? undefined : gzip ? prepared.gzipped() : prepared.body);
  return 200;
}

function logRead(
  log: Logger,
  req: IncomingMessage,
  path: string,
  status: number,
  revision: string | undefined,
  started: number,
  caller: CallerKind,
): void {
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
      caller,
      remote: req.socket.remoteAddress,
      user_agent: req.headers['user-agent'],
    },
    'read request',
  );
}
